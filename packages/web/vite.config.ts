import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

/**
 * Content-hashed assets precompressed at build time (issue 20): each text file of dist/assets gets a .br
 * (quality 11) and a .gz (level 9) beside it, which the server sends to browsers that accept them
 * (@fastify/static preCompressed, server http/staticDelivery.ts) — no compression work per request.
 */
function precompressAssets(): Plugin {
  return {
    name: "balcao-precompress-assets",
    apply: "build",
    writeBundle(options, bundle) {
      const dir = options.dir!;
      for (const fileName of Object.keys(bundle)) {
        if (!fileName.startsWith("assets/") || !/\.(js|css|svg|json|txt|wasm)$/.test(fileName)) continue;
        const file = path.join(dir, fileName);
        const content = readFileSync(file);
        const brotli = { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length };
        writeFileSync(`${file}.br`, brotliCompressSync(content, { params: brotli }));
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}

// The API server the dev proxy forwards to: the PORT `npm run dev` gives the server (8080 by default).
const backend = `http://localhost:${process.env.PORT ?? 8080}`;

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  plugins: [react(), precompressAssets()],
  build: {
    outDir: fileURLToPath(new URL("./dist", import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    rolldownOptions: {
      treeshake: {
        // @balcao/shared is one barrel (src/index.ts) of constants, the error catalogue and every zod schema of the
        // app, built at module level: declared free of side effects, a page gets only the modules it uses, and the
        // entry no longer carries every schema (issue 20). Other modules keep the default (package.json).
        moduleSideEffects: (id) => (/[\\/]packages[\\/]shared[\\/]src[\\/]/.test(id) ? false : undefined),
      },
      output: {
        // React and the router stay long-lived chunks: app releases do not invalidate them. The router is a chunk
        // of its own because the light login page (app/loginShell.tsx) shows with React alone (issue 20).
        // Everything else is split by what imports it: a page downloads the MUI components, the libraries and the
        // locale texts it uses, not the whole of MUI or every library of the app (one "mui" and one "vendor"
        // chunk made the login page download 430 KB of gzipped JavaScript).
        codeSplitting: {
          groups: [
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 30 },
            { name: "react-router", test: /node_modules[\\/]react-router[\\/]/, priority: 30 },
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
