import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The API server the dev proxy forwards to: the PORT `npm run dev` gives the server (8080 by default).
const backend = `http://localhost:${process.env.PORT ?? 8080}`;

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL("./dist", import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Long-lived vendor chunks: app releases do not invalidate the libraries' cache.
        codeSplitting: {
          groups: [
            { name: "react", test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/, priority: 30 },
            // The dashboard's chart library (@mui/x-charts and what only it uses: d3, reselect, @base-ui/utils…)
            // stays out of the vendor chunks: it loads with the lazy chart only, never with the login or tickets pages.
            { name: "mui", test: /node_modules[\\/](@mui[\\/](?!x-)|@emotion[\\/])/, priority: 20 },
            // The MP3 encoder is only needed once someone records a voice note: keep it in its own lazy chunk.
            {
              name: "vendor",
              test: /node_modules[\\/](?!@breezystack[\\/]lamejs|@mui[\\/]x-|bezier-easing[\\/]|d3-|internmap[\\/]|flatqueue[\\/]|reselect[\\/]|@base-ui[\\/]|use-sync-external-store[\\/])/,
              priority: 10,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      "/api": { target: backend, changeOrigin: true },
      "/socket.io": { target: backend, ws: true, changeOrigin: true },
    },
  },
});
