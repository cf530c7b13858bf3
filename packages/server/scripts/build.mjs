// `npm run build -w @balcao/server`: compiles the server (and the @balcao/shared sources it imports) to
// JavaScript in dist/bin/ with esbuild — one ES module per entry point, source maps beside them — and copies
// the SQL migrations next to them (db/client.ts finds them beside the running module). npm packages stay
// external: they are loaded from node_modules at run time, as with tsx.
// dist/bin/ sits as deep below the repository root as src/config/, so import.meta.url-relative paths
// (config/env.ts's REPO_ROOT → packages/web/dist) mean the same compiled and from sources.
import { cpSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dist = path.join(root, "dist");
const out = path.join(dist, "bin");
const started = Date.now();

rmSync(dist, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { main: "src/main.ts", cli: "src/cli.ts" },
  outdir: out,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20.19",
  sourcemap: true,
  sourcesContent: false,
  // No code splitting: every module must sit in dist/bin/ itself, so import.meta.url-relative paths
  // (db/client.ts's migrations folder) resolve the same from main.js and cli.js.
  logLevel: "warning",
  plugins: [
    {
      // Bundle our own code (relative imports and the @balcao/shared workspace); leave npm packages external.
      name: "externals",
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith("@balcao/") ? undefined : { path: args.path, external: true }));
      },
    },
  ],
});
cpSync(path.join(root, "src/db/migrations"), path.join(out, "migrations"), { recursive: true });
console.log(`server compiled to ${path.relative(process.cwd(), out)} in ${Date.now() - started} ms`);
