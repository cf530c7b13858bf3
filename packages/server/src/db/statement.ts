import { Column, getTableName, is, SQL, Subquery } from "drizzle-orm";
import type { DbOrTx } from "./client";

/** What drizzle's `.prepare(name)` returns: a query built with placeholders, run by `execute(values)`. */
interface Prepared {
  execute(placeholderValues?: Record<string, unknown>): Promise<unknown>;
}

/** A selected field as drizzle's prepared query keeps it (`orderSelectedFields`): where it goes, what it is. */
interface SelectedField {
  path: string[];
  field: unknown;
}

interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

/** The internals of drizzle's node-postgres prepared query that its row mapping reads. */
interface PreparedInternals {
  fields?: SelectedField[];
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: (rows: unknown[][]) => unknown;
}

/** The decoder drizzle's `mapResultRow` picks for a field (a column, an SQL expression, a subquery, an alias). */
function decoderOf(field: unknown): Decoder {
  if (is(field, Column)) return field as unknown as Decoder;
  if (is(field, SQL)) return (field as unknown as { decoder: Decoder }).decoder;
  if (is(field, Subquery)) return (field as unknown as { _: { sql: { decoder: Decoder } } })._.sql.decoder;
  return (field as { sql: { decoder: Decoder } }).sql.decoder;
}

/**
 * drizzle's `mapResultRow` (drizzle-orm/utils.js), resolved once per statement instead of once per value: which
 * decoder each column uses and which joined object becomes null (a left join that found no row) are fixed by the
 * query, yet drizzle re-derives them per row with three `is()` walks of the prototype chain per value (~0.3 ms of a
 * history page's ~2 ms of CPU, issue 20). Same output: `statement.test.ts` compares the two on real rows.
 *
 * drizzle nulls an object whose first column (of those selected as a table's columns, path of two) reads null,
 * unless its fields come from more than one table or its table is an inner join's; both are known here.
 */
export function compileRowMapper(fields: SelectedField[], joinsNotNullableMap?: Record<string, boolean>): (rows: unknown[][]) => unknown[] {
  const columns = fields.map(({ path, field }) => ({ parents: path.slice(0, -1), key: path[path.length - 1]!, decoder: decoderOf(field) }));
  const objects = new Map<string, { first: number; table: string | null }>();
  if (joinsNotNullableMap) {
    fields.forEach(({ path, field }, index) => {
      if (!is(field, Column) || path.length !== 2) return;
      const table = getTableName((field as unknown as { table: Parameters<typeof getTableName>[0] }).table);
      const seen = objects.get(path[0]!);
      if (!seen) objects.set(path[0]!, { first: index, table });
      else if (seen.table !== table) seen.table = null;
    });
  }
  const nullable = [...objects].filter(([, { table }]) => table !== null && !joinsNotNullableMap![table]).map(([key, { first }]) => ({ key, first }));
  return (rows) =>
    rows.map((row) => {
      const result: Record<string, unknown> = {};
      for (let index = 0; index < columns.length; index++) {
        const { parents, key, decoder } = columns[index]!;
        let node = result;
        for (const parent of parents) node = (node[parent] ??= {}) as Record<string, unknown>;
        const raw = row[index];
        node[key] = raw === null ? null : decoder.mapFromDriverValue(raw);
      }
      for (const { key, first } of nullable) {
        if ((result[key] as Record<string, unknown>)[columns[first]!.key] === null) result[key] = null;
      }
      return result;
    });
}

/** Gives a prepared select (or returning) query the compiled row mapper; leaves any other mapping alone. */
function withCompiledRows<Q>(query: Q): Q {
  const internals = query as PreparedInternals;
  if (internals.fields && !internals.customResultMapper)
    internals.customResultMapper = compileRowMapper(internals.fields, internals.joinsNotNullableMap);
  return query;
}

/** The pg client (pool, or a transaction's connection) a drizzle handle sends its queries through. */
function clientOf(handle: DbOrTx): unknown {
  return (handle._.session as unknown as { client: unknown }).client;
}

/**
 * A statement of the hot paths (issue 20), built once per process with placeholders and run on any handle: the
 * pool or a transaction. drizzle writes a query's SQL text anew each time one is built (its `is()` checks and
 * SQL assembly were ~28% of the inbound pipeline's CPU), and a prepared query is bound to the connection it was
 * built on; this builds it once and hands each handle a view of it that sends through that handle's connection
 * (drizzle's node-postgres prepared query reads its connection from `client`). `build` must use placeholders
 * (`sql.placeholder`) for every value that varies and name the statement (`.prepare(name)`), so that each pooled
 * connection also parses and plans it once. Its rows are mapped by a mapper compiled once (compileRowMapper).
 */
export function statement<Q extends Prepared>(build: (handle: DbOrTx) => Q): (handle: DbOrTx) => Q {
  let built: { query: Q; client: unknown } | undefined;
  return (handle) => {
    const client = clientOf(handle);
    if (!built) built = { query: withCompiledRows(build(handle)), client };
    if (built.client === client) return built.query;
    return Object.create(built.query, { client: { value: client } }) as Q;
  };
}

/**
 * A statement of fixed SQL text, named, sent through a handle's connection (the pool, or a transaction's) by pg
 * itself: no drizzle building at all, for hot statements whose rows need no mapping (issue 20).
 */
export function namedQuery<R = Record<string, unknown>>(name: string, text: string) {
  const config = { name, text };
  return async (handle: DbOrTx, values: unknown[]): Promise<R[]> => {
    const client = clientOf(handle) as { query(config: { name: string; text: string }, values: unknown[]): Promise<{ rows: R[] }> };
    return (await client.query(config, values)).rows;
  };
}

/**
 * A WITH query's fields as a selection, each read through the query's alias (drizzle's proxy), e.g. to nest a
 * data-modifying WITH's returned row under one key beside other fields.
 */
export function cteFields<C extends { _: { selectedFields: Record<string, unknown> } }>(cte: C): C["_"]["selectedFields"] {
  const fields = cte as unknown as Record<string, unknown>;
  return Object.fromEntries(Object.keys(cte._.selectedFields).map((key) => [key, fields[key]])) as C["_"]["selectedFields"];
}
