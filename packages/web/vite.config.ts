import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import react from "@vitejs/plugin-react";
import { defineConfig, parseAst, type Plugin } from "vite";
import { ERRORS, errorTexts, wireError, type ErrorCode, type Language } from "../shared/src/errors.ts";

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

/**
 * The error catalogue of @balcao/shared (shared/src/errors.ts: every code, its status and its text in pt, en and
 * es) cut for the browser (issue 20): "virtual:error-texts/<language>" is one language's texts, which its bundle of
 * texts carries (locales/bundle.<language>.ts), and "virtual:error-wires" the few codes the server names by a text
 * (`wire`), which components/failureText.ts maps back. The whole catalogue weighed 7 KB gzipped on every page.
 */
export function errorCatalogue(): Plugin {
  const prefix = "virtual:error-";
  return {
    name: "balcao-error-catalogue",
    resolveId(id) {
      return id.startsWith(prefix) ? `\0${id}` : undefined;
    },
    load(id) {
      if (!id.startsWith(`\0${prefix}`)) return undefined;
      const what = id.slice(prefix.length + 1);
      const codes = Object.keys(ERRORS) as ErrorCode[];
      if (what === "wires") {
        const wires = Object.fromEntries(codes.filter((code) => wireError(code) !== code).map((code) => [wireError(code), code]));
        return `export default ${JSON.stringify(wires)};`;
      }
      const language = /^texts\/(pt|en|es)$/.exec(what)?.[1] as Language | undefined;
      if (!language) throw new Error(`unknown module ${id.slice(1)}`);
      return `export default ${JSON.stringify(errorTexts(language))};`;
    },
  };
}

/**
 * What every logged-in page downloads, in two chunks instead of ~100 (issue 20): the app (app/fullApp.tsx: router,
 * providers, theme, i18next, react-query, the toasts) and the layout (app/layout/AppLayout.tsx: drawer, top bar and
 * the MUI components, hooks and socket code they use). Rolldown splits modules by the set of lazy chunks that
 * reach them, so a module the layout shares with a few pages became a chunk of its own; but every page but the
 * public ones shows inside the layout, so it downloads all of them anyway, each gzipped apart (the tickets page:
 * 104 KB in 76 files, 79 KB as one). The modules the login shell needs stay out (it shows before the app), and so
 * do those the pages shown without the layout share with it (they would download the whole layout).
 *
 * The sets are the modules each root imports statically, transitively. A barrel (a module of re-exports only,
 * "@mui/material", "date-fns", @balcao/shared…) counts for the names imported from it, not for everything it
 * re-exports: otherwise a date-fns function or an MUI component only one lazy page uses would come with the layout.
 */
function shellChunks(): { plugin: Plugin; name: (id: string) => string | null } {
  const groups = new Map<string, string>();
  const plugin: Plugin = {
    name: "balcao-shell-chunks",
    apply: "build",
    async buildEnd() {
      type Statement = ReturnType<typeof parseAst>["body"][number];
      const statements = new Map<string, Statement[]>();
      const body = (id: string): Statement[] => {
        let parsed = statements.get(id);
        if (!parsed) {
          const code = this.getModuleInfo(id)?.code ?? "";
          try {
            parsed = parseAst(code).body;
          } catch {
            parsed = [];
          }
          statements.set(id, parsed);
        }
        return parsed;
      };
      const resolved = new Map<string, string | null>();
      const resolve = async (source: string, importer: string): Promise<string | null> => {
        const key = `${importer}\n${source}`;
        if (!resolved.has(key)) resolved.set(key, (await this.resolve(source, importer))?.id ?? null);
        return resolved.get(key)!;
      };
      const nameOf = (node: { type: string; name?: string; value?: unknown }) => (node.type === "Identifier" ? node.name! : String(node.value));
      const isBarrel = (id: string) => {
        const nodes = body(id);
        return (
          nodes.length > 0 &&
          nodes.every(
            (node) =>
              (node.type === "ExportNamedDeclaration" && !node.declaration) ||
              node.type === "ExportAllDeclaration" ||
              (node.type === "ImportDeclaration" && node.specifiers.length > 0) ||
              (node.type === "ExpressionStatement" && "directive" in node),
          )
        );
      };

      const closure = async (roots: string[]): Promise<Set<string>> => {
        const seen = new Set<string>();
        const usedNames = new Map<string, Set<string>>();
        // `names` of module `id` are used; "*" is all of it.
        const use = async (id: string | null, names: string[]): Promise<void> => {
          if (!id || id.startsWith("\0") || !this.getModuleInfo(id)) return;
          if (!isBarrel(id) || names.includes("*")) return visit(id);
          const done = usedNames.get(id) ?? new Set<string>();
          usedNames.set(id, done);
          seen.add(id);
          for (const name of names) {
            if (done.has(name)) continue;
            done.add(name);
            let found = false;
            for (const node of body(id)) {
              if (node.type !== "ExportNamedDeclaration") continue;
              const specifier = node.specifiers.find((candidate) => nameOf(candidate.exported) === name);
              if (!specifier) continue;
              found = true;
              if (node.source) {
                await use(await resolve(String(node.source.value), id), [nameOf(specifier.local)]);
                continue;
              }
              // `import * as colors from "./colors"; export { colors };`
              const local = nameOf(specifier.local);
              for (const other of body(id)) {
                if (other.type !== "ImportDeclaration") continue;
                const imported = other.specifiers.find((candidate) => candidate.local.name === local);
                if (!imported) continue;
                const importedName =
                  imported.type === "ImportSpecifier" ? nameOf(imported.imported) : imported.type === "ImportDefaultSpecifier" ? "default" : "*";
                await use(await resolve(String(other.source.value), id), [importedName]);
              }
            }
            if (found) continue;
            for (const node of body(id)) {
              if (node.type !== "ExportAllDeclaration") continue;
              const target = await resolve(String(node.source.value), id);
              if (node.exported ? nameOf(node.exported) === name : target && this.getModuleInfo(target)?.exports.includes(name)) {
                await use(target, node.exported ? ["*"] : [name]);
              }
            }
          }
        };
        const visit = async (id: string): Promise<void> => {
          if (seen.has(id) && !usedNames.has(id)) return;
          usedNames.delete(id);
          seen.add(id);
          const covered = new Set<string>();
          for (const node of body(id)) {
            if (node.type === "ImportDeclaration") {
              if (node.importKind === "type") continue;
              const target = await resolve(String(node.source.value), id);
              if (target) covered.add(target);
              const names = node.specifiers.map((specifier) =>
                specifier.type === "ImportSpecifier" ? nameOf(specifier.imported) : specifier.type === "ImportDefaultSpecifier" ? "default" : "*",
              );
              await use(target, names.length > 0 ? names : ["*"]);
            } else if ((node.type === "ExportNamedDeclaration" && node.source) || node.type === "ExportAllDeclaration") {
              const target = await resolve(String(node.source!.value), id);
              if (target) covered.add(target);
              await use(target, ["*"]);
            }
          }
          // CommonJS requires and anything not read above: the whole module.
          for (const imported of this.getModuleInfo(id)?.importedIds ?? []) if (!covered.has(imported)) await use(imported, ["*"]);
        };
        for (const id of roots) await visit(id);
        return seen;
      };

      const root = (file: string) => fileURLToPath(new URL(file, import.meta.url));
      const login = await closure([root("./src/app/main.tsx"), root("./src/app/loginShell.tsx"), root("./src/locales/login.pt.ts")]);
      const app = await closure([root("./src/app/fullApp.tsx")]);
      const layout = await closure([root("./src/app/layout/AppLayout.tsx")]);
      // The pages shown without the layout (app/router.tsx) must not download it for what they share with it: the
      // sign-up page and the simulator download that part of it as one chunk ("ui"); the app's login page (after a
      // session expired) gets what it shares with the layout as before, Rolldown's common chunks.
      const appLogin = await closure([root("./src/features/auth/LoginRoute.tsx")]);
      const outside = await closure([root("./src/features/auth/SignupPage.tsx"), root("./src/features/simulator/SimulatorRoute.tsx")]);
      groups.clear();
      for (const id of layout) {
        if (login.has(id) || app.has(id) || appLogin.has(id)) continue;
        groups.set(id, outside.has(id) ? "ui" : "layout");
      }
      for (const id of app) if (!login.has(id)) groups.set(id, "app");
    },
  };
  return { plugin, name: (id) => groups.get(id) ?? null };
}

const shell = shellChunks();

// The API server the dev proxy forwards to: the PORT `npm run dev` gives the server (8080 by default).
const backend = `http://localhost:${process.env.PORT ?? 8080}`;

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  plugins: [react(), errorCatalogue(), precompressAssets(), shell.plugin],
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
            { name: shell.name, priority: 20, includeDependenciesRecursively: false },
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
