/**
 * Issue 20, item 3: where a route's gzipped JavaScript goes. Builds the web app for production with source maps
 * (a temporary directory; `vite build --sourcemap --manifest`), takes each route's files as the bundle budget test
 * does (packages/web/src/test/bundleBudget.ts: the entry and the lazy chunks the route waits for), and shares each
 * file's gzipped size (level 9) among the sources its source map names, by their bytes in the file: an estimate
 * of each package's part, which the per-file sizes add up to exactly. Prints, per route, its weight beside its
 * budget, the packages by weight, and the libraries of DESIGN's web stack (React, react-router, i18next,
 * react-query, the Socket.IO client, MUI's styling core and emotion) that the route cannot leave out.
 *
 * BENCH_WEB_WEIGHT_TOP (20) sets how many sources are listed per route.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { SourceMapConsumer, type RawSourceMap } from "source-map-js";
import { BUDGETS, buildForProduction, routeWeights } from "../packages/web/src/test/bundleBudget";

const TOP = Number(process.env.BENCH_WEB_WEIGHT_TOP ?? 20);

/** The stack's libraries every logged-in page downloads, by the package names a source's path carries. */
const STACK: Record<string, RegExp> = {
  "React (react, react-dom, scheduler)": /^(react|react-dom|scheduler)$/,
  "react-router": /^react-router$/,
  "i18next (i18next, react-i18next)": /^(i18next|react-i18next)$/,
  "react-query (@tanstack/*)": /^@tanstack\//,
  "Socket.IO client (socket.io-client, engine.io-*, socket.io-parser, component-emitter)":
    /^(socket\.io-client|engine\.io-client|engine\.io-parser|socket\.io-parser|@socket\.io\/component-emitter)$/,
  "MUI's styling core (@mui/system, @mui/utils, @mui/material/styles, emotion, stylis, react-is)":
    /^(@mui\/system|@mui\/utils|@mui\/material\/styles|@emotion\/.*|stylis|react-is|hoist-non-react-statics|@babel\/runtime)$/,
};

/** The package of a source path ("@mui/material/styles" for MUI's styling folder), or the app's own file. */
function owner(source: string | null): string {
  if (!source) return "(no source: texts, virtual modules)";
  const inModules = source.lastIndexOf("node_modules/");
  if (inModules < 0) return source.replace(/^.*?packages\//, "");
  const parts = source.slice(inModules + "node_modules/".length).split("/");
  const name = parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
  return name === "@mui/material" && parts[2] === "styles" ? "@mui/material/styles" : name;
}

/** Each source's estimated share (bytes) of one file's gzipped size. */
function shares(file: string): Map<string, number> {
  const code = readFileSync(file, "utf8");
  const gzipBytes = gzipSync(code, { level: 9 }).length;
  const out = new Map<string, number>();
  let map: SourceMapConsumer;
  try {
    map = new SourceMapConsumer(JSON.parse(readFileSync(`${file}.map`, "utf8")) as RawSourceMap);
  } catch {
    out.set(`(no source map: ${path.basename(file)})`, gzipBytes);
    return out;
  }
  const lines = code.split("\n");
  const segments: { line: number; column: number; source: string | null }[] = [];
  map.eachMapping((m) => segments.push({ line: m.generatedLine, column: m.generatedColumn, source: m.source }));
  segments.sort((a, b) => a.line - b.line || a.column - b.column);
  const bytes = new Map<string, number>();
  let mapped = 0;
  segments.forEach((segment, i) => {
    const next = segments[i + 1];
    const end = next && next.line === segment.line ? next.column : lines[segment.line - 1]!.length;
    const key = owner(segment.source);
    bytes.set(key, (bytes.get(key) ?? 0) + (end - segment.column));
    mapped += end - segment.column;
  });
  for (const [key, n] of bytes) out.set(key, (n / Math.max(mapped, 1)) * gzipBytes);
  return out;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1).padStart(6)} KB`;

export async function webWeightBench(): Promise<void> {
  const outDir = mkdtempSync(path.join(tmpdir(), "balcao-web-weight-"));
  try {
    buildForProduction(outDir, ["--sourcemap"], "inherit");
    for (const route of routeWeights(outDir)) {
      const total = new Map<string, number>();
      for (const file of route.files) for (const [key, n] of shares(path.join(outDir, file))) total.set(key, (total.get(key) ?? 0) + n);
      const budget = BUDGETS[route.route];
      console.log(
        `\n${route.route}: ${kb(route.gzipBytes)} of gzipped JavaScript in ${route.files.length} files (budget ${kb(budget)}, ×${(route.gzipBytes / budget).toFixed(2)})`,
      );
      for (const [key, n] of [...total].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`  ${kb(n)}  ${key}`);
      let stack = 0;
      console.log("  the stack's libraries on this route:");
      for (const [label, test] of Object.entries(STACK)) {
        const n = [...total].filter(([key]) => test.test(key)).reduce((sum, [, v]) => sum + v, 0);
        stack += n;
        console.log(`  ${kb(n)}  ${label}`);
      }
      console.log(`  ${kb(stack)}  together (×${(stack / route.gzipBytes).toFixed(2)} of the route); the rest: ${kb(route.gzipBytes - stack)}`);
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
