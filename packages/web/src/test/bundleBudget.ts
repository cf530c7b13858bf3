import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

const webRoot = path.resolve(import.meta.dirname, "../..");

/**
 * The web app's production build with its manifest into `outDir` (the bundle budget test, bench/web-weight.ts),
 * in a child process: a test runner's NODE_ENV=test would make a development build of React.
 */
export function buildForProduction(outDir: string, extraArgs: string[] = [], stdio: "pipe" | "inherit" = "pipe"): void {
  const vite = path.resolve(webRoot, "../../node_modules/vite/bin/vite.js");
  execFileSync(process.execPath, [vite, "build", "--manifest", ...extraArgs, "--emptyOutDir", "--outDir", outDir, "--logLevel", "error"], {
    cwd: webRoot,
    env: { ...process.env, NODE_ENV: "production" },
    stdio,
  });
}

/** A chunk of Vite's build manifest (`build.manifest: true`, dist/.vite/manifest.json). */
type ManifestChunk = { file: string; src?: string; isEntry?: boolean; isDynamicEntry?: boolean; imports?: string[]; dynamicImports?: string[] };
type Manifest = Record<string, ManifestChunk>;

/**
 * What a route downloads before it shows (issue 20): the entry (index.html's script, app/main.tsx), and the lazy
 * chunks it waits for, each with every chunk it imports statically, transitively. The login page of a visitor
 * with no session: the login shell (app/loginShell.tsx, with the light LoginPage) and its texts of the default
 * language. The tickets page: the app (app/fullApp.tsx: router, providers), the texts of the default language
 * (app/i18n.ts), the lazy chunks of the route's components (app/router.tsx) and the Socket.IO client
 * (api/SocketProvider.tsx). What a page loads on demand only (the voice encoder, the dashboard's chart, the app
 * while the login page is on screen) is not counted.
 */
export const ROUTE_CHUNKS = {
  login: ["src/app/loginShell.tsx", "src/locales/login.pt.ts"],
  tickets: [
    "src/app/fullApp.tsx",
    "src/locales/bundle.pt.ts",
    "src/app/layout/AppLayout.tsx",
    "src/features/tickets/TicketsPage.tsx",
    "src/api/socket.ts",
  ],
} as const;

/**
 * Gzipped JavaScript ceilings in bytes: today's weights with a little room (issue 20). Login 77 KB (budget 80):
 * React and React DOM (66 KB), the entry, the light login page and its texts — the login shell
 * (app/loginShell.tsx) shows before the router, MUI, emotion, react-query, the toasts and i18next, which weighed
 * 275 KB with the page in the app. Tickets 281 KB (budget 290), from 532 KB for every page before the route
 * splitting, 471 KB before @balcao/shared was declared free of side effects and the layout's and tickets page's
 * dialogs became lazy, 420 KB before the login shell (the app's own chunk and the router's cost ~3 KB of
 * chunking), 423 KB before the conversation of a ticket (TicketView: messages, composer, header's actions), the spy
 * dialog and the search tab's filters (Autocomplete) became chunks of their own, fetched once the page is idle,
 * 397 KB before what the layout reads from @balcao/shared (CONNECTION_ALERT_STATUSES, unreadsOf) left
 * the modules of zod schemas, which brought zod (25 KB) with them, 368 KB before the top bar's volume slider, the
 * shortcuts help sheet and the announcement viewer became chunks downloaded when first opened, 360 KB before the
 * session, the layout and the chats' times stopped using date-fns for a local yyyy-MM-dd (app/localDate.ts), 355 KB
 * in 130 files before the modules of the app and of the layout became two chunks (vite.config.ts, shellChunks):
 * gzipped apart, 76 small files of the layout's MUI components, hooks and API code cost ~25 KB more than as one,
 * 316 KB before a language's bundle of texts carried its error texts cut from the catalogue of @balcao/shared at
 * build time (vite.config.ts, errorCatalogue) instead of the whole catalogue in three languages (7 KB), 312 KB
 * before the texts of the pages few open (campaigns, contact lists, Kanban, settings, the simulator…) left the
 * language's bundle to load with those pages (app/i18n.ts, loadPageTexts): the bundle, 19 KB, is 12 KB; 306 KB
 * before the previews' markup stripping (messages/whatsappMarkers.ts) stopped bringing MUI's Link with it, 305 KB
 * before the app's routes went under a declarative router instead of a data router (app/fullApp.tsx; react-router
 * 29 → 13 KB), 289 KB before the app's own toasts on MUI's Alert (components/toasts.tsx) replaced notistack (7 KB), 284 KB
 * before the texts of the queues' and the quick messages' pages loaded with those pages (app/i18n.ts, PAGE_TEXTS), 283 KB
 * before the search box (components/SearchField.tsx) was built from TextField's parts instead of TextField.
 * Issue 20's target for the tickets page (≤ 200 KB) is not reached. Of the 305 KB then (source maps,
 * gzip shared out by size): React and React DOM 66 KB, MUI 110 (its components 75 — theme 9, the Select and inputs of the queue
 * filter, Tabs, Tooltip, Drawer, Chip… —, Popper 6, @mui/system and utils 17, emotion 8, icons 4), react-router 29,
 * the app's own code 28, i18next 15, the texts of one language and the chunks' preload lists 17, the Socket.IO
 * client 13, react-query 12, notistack 8, the bundler's glue 7.
 * Lower these as the pages get lighter; never raise them to let a change in.
 */
export const BUDGETS: Record<keyof typeof ROUTE_CHUNKS, number> = { login: 80 * 1024, tickets: 290 * 1024 };

export type RouteWeight = { route: keyof typeof ROUTE_CHUNKS; files: string[]; gzipBytes: number; rawBytes: number };

/** The JavaScript files of a route and their gzipped size (level 9: deterministic for a given build). */
export function routeWeights(distDir: string): RouteWeight[] {
  const manifest = JSON.parse(readFileSync(path.join(distDir, ".vite/manifest.json"), "utf8")) as Manifest;
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entry) throw new Error("the manifest has no entry");
  return (Object.keys(ROUTE_CHUNKS) as (keyof typeof ROUTE_CHUNKS)[]).map((route) => {
    const files = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (!chunk) throw new Error(`${key} is not in the manifest (renamed? update ROUTE_CHUNKS)`);
      if (files.has(chunk.file)) return;
      files.add(chunk.file);
      for (const imported of chunk.imports ?? []) visit(imported);
    };
    visit(entry);
    for (const key of ROUTE_CHUNKS[route]) visit(key);
    const js = [...files].filter((file) => file.endsWith(".js")).sort();
    let gzipBytes = 0;
    let rawBytes = 0;
    for (const file of js) {
      const content = readFileSync(path.join(distDir, file));
      rawBytes += content.length;
      gzipBytes += gzipSync(content, { level: 9 }).length;
    }
    return { route, files: js, gzipBytes, rawBytes };
  });
}
