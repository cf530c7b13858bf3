import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

/** A chunk of Vite's build manifest (`build.manifest: true`, dist/.vite/manifest.json). */
type ManifestChunk = { file: string; src?: string; isEntry?: boolean; isDynamicEntry?: boolean; imports?: string[]; dynamicImports?: string[] };
type Manifest = Record<string, ManifestChunk>;

/**
 * What a route downloads before it shows (issue 20): the entry (index.html's script), the texts of the default
 * language (app/i18n.ts) and the lazy chunks of the route's components (app/router.tsx) — for the tickets page
 * also the Socket.IO client (api/SocketProvider.tsx) —, each with every chunk it imports statically,
 * transitively. What a page loads on demand only (the voice encoder, the dashboard's chart) is not counted.
 */
export const ROUTE_CHUNKS = {
  login: ["src/locales/bundle.pt.ts", "src/features/auth/LoginPage.tsx"],
  tickets: ["src/locales/bundle.pt.ts", "src/app/layout/AppLayout.tsx", "src/features/tickets/TicketsPage.tsx", "src/api/socket.ts"],
} as const;

/**
 * Gzipped JavaScript ceilings in bytes: today's weights with ~7% of room (issue 20): login 275 KB and tickets
 * 420 KB, from 532 KB for every page before the route splitting, 303/471 KB before @balcao/shared was declared
 * free of side effects, the layout's and tickets page's dialogs (contact drawer, new ticket, schedule, transfer,
 * share, own profile, command palette) became lazy and the login form's schema (zod) a chunk loaded after the
 * first render. Issue 20's targets (login ≤ 120 KB, tickets
 * ≤ 200 KB) are not reached: React 19 with react-router alone weighs 95 KB, the MUI core ~30 KB more, i18next
 * with notistack ~29 KB, the texts of one language 18 KB, react-hook-form 15 KB (the login form).
 * Lower these as the pages get lighter; never raise them to let a change in.
 */
export const BUDGETS: Record<keyof typeof ROUTE_CHUNKS, number> = { login: 295 * 1024, tickets: 448 * 1024 };

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
