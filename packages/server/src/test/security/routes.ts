import { randomUUID } from "node:crypto";
import type { App } from "../../app";

/**
 * The route table as the security suite sees it: read from the app's own OpenAPI description (built by
 * @fastify/swagger from every registered route and its zod schemas), so a new route is probed the day it
 * is added, with no list to maintain.
 */

export type Method = "GET" | "POST" | "PUT" | "DELETE" | "PATCH";

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
  pattern?: string;
}

export interface RouteInfo {
  method: Method;
  /** With `{param}` placeholders, without the /api prefix. */
  path: string;
  pathParams: string[];
  query: Record<string, JsonSchema>;
  body?: JsonSchema;
}

export function routeTable(app: App): RouteInfo[] {
  const spec = app.swagger() as {
    paths: Record<
      string,
      Record<
        string,
        { parameters?: { in: string; name: string; schema?: JsonSchema }[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }
      >
    >;
  };
  const routes: RouteInfo[] = [];
  for (const [path, operations] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const upper = method.toUpperCase() as Method;
      if (!["GET", "POST", "PUT", "DELETE", "PATCH"].includes(upper)) continue;
      const params = op.parameters ?? [];
      routes.push({
        method: upper,
        path,
        pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
        query: Object.fromEntries(params.filter((p) => p.in === "query").map((p) => [p.name, p.schema ?? {}])),
        body: op.requestBody?.content?.["application/json"]?.schema,
      });
    }
  }
  return routes.sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}

/** Deterministic PRNG (mulberry32): the same seed explores the same inputs, so a failure reproduces. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
  };
}
export type Rng = ReturnType<typeof prng>;

/** Values that have broken web APIs: wrong types, edge numbers, encodings, injections, huge and deep data. */
export const HOSTILE: readonly unknown[] = [
  null,
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u001b[31m",
  "0x5",
  "1e3",
  " 5",
  "-1",
  -1,
  0,
  2_147_483_648,
  // eslint-disable-next-line no-loss-of-precision -- past 2^53 on purpose: ids must refuse it
  9_007_199_254_740_993,
  1e308,
  -0.5,
  "NaN",
  "Infinity",
  true,
  "true",
  "2024-02-30",
  "9999-99-99T99:99:99Z",
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "'; drop table users; --",
  "%00",
  "../../etc/passwd",
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ✓ 中文 العربية",
  "\ud800",
  "x".repeat(10_000),
  [],
  [1, "a", null],
  {},
  { __proto__: { polluted: true } },
  JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'),
  { a: { b: { c: { d: { e: { f: { g: { h: 1 } } } } } } } },
];

/** A value shaped like `schema` (what a well-behaved client sends), from the seeded generator. */
export function shaped(schema: JsonSchema | undefined, rng: Rng, depth = 0): unknown {
  if (!schema || depth > 6) return rng.pick(["x", 1, true]);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return rng.pick(schema.enum);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return shaped(rng.pick(variants), rng, depth + 1);
  if (schema.allOf?.length) return shaped(schema.allOf[0], rng, depth + 1);
  const type = Array.isArray(schema.type) ? rng.pick(schema.type.filter((t) => t !== "null")) : schema.type;
  switch (type) {
    case "integer":
    case "number": {
      const min = schema.minimum ?? 1;
      const max = Math.min(schema.maximum ?? 1000, min + 1000);
      return rng.int(Math.ceil(min), Math.floor(max));
    }
    case "boolean":
      return rng.chance(0.5);
    case "array":
      return Array.from({ length: rng.int(0, 3) }, () => shaped(schema.items, rng, depth + 1));
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(schema.properties ?? {})) {
        if (schema.required?.includes(key) || rng.chance(0.6)) out[key] = shaped(child, rng, depth + 1);
      }
      return out;
    }
    case "string":
    default: {
      if (schema.format === "email") return `fuzz${rng.int(1, 1e6)}@test.dev`;
      if (schema.format === "uuid") return randomUUID();
      if (schema.format === "date") return "2024-02-29";
      if (schema.format === "date-time") return new Date(2024, 1, 29).toISOString();
      const min = schema.minLength ?? 1;
      const max = Math.min(schema.maxLength ?? 40, min + 40);
      const length = rng.int(min, Math.max(min, max));
      return Array.from({ length }, () => rng.pick([..."abcdefghijklmnopqrstuvwxyz0123456789 éçã-_"])).join("");
    }
  }
}

/** Hostile values that are strings: what a text field that passed its type check receives. */
export const HOSTILE_STRINGS = HOSTILE.filter((v): v is string => typeof v === "string");

/**
 * A well-shaped body with exactly one text field (or one id) made hostile: it passes every other check, so
 * the hostile value reaches the service and the database — where 500s used to come from.
 */
export function oneHostileField(schema: JsonSchema | undefined, rng: Rng): unknown {
  const value = shaped(schema, rng);
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length === 0) return record;
  const key = rng.pick(keys);
  record[key] = typeof record[key] === "string" ? rng.pick(HOSTILE_STRINGS) : rng.pick(HOSTILE);
  return record;
}

/** `shaped` with some fields (or the whole value) replaced by hostile ones. */
export function mutated(schema: JsonSchema | undefined, rng: Rng): unknown {
  if (rng.chance(0.15)) return rng.pick(HOSTILE);
  const value = shaped(schema, rng);
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(schema?.properties ?? record);
    for (const key of keys) if (rng.chance(0.4)) record[key] = rng.pick(HOSTILE);
    if (rng.chance(0.2)) record[`extra${rng.int(1, 99)}`] = rng.pick(HOSTILE);
    return record;
  }
  return rng.chance(0.5) ? rng.pick(HOSTILE) : value;
}

/** A query string value: the hostile ones as text, since that is all a URL carries. */
export function queryText(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value) ?? "";
}
