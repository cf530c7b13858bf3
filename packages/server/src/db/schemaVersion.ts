/**
 * Which schema a database is at, against the migrations this build carries (issue 23, upgrades).
 *
 * drizzle records each applied migration in drizzle.__drizzle_migrations as (hash, created_at = the journal
 * entry's `when`) and applies only the entries newer than the newest row. A database migrated by a newer
 * Balcão therefore looks "up to date" to an older one, which would then run on a schema it does not know.
 * `assertSchemaNotNewer` refuses that (server start and `balcao migrate`), naming the schema the database is
 * at and, when the newer version left its stamp, that version. `stampSchema` leaves this build's stamp (a
 * comment on drizzle's table: no migration of its own, kept by pg_dump) after migrating.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { MIGRATIONS_FOLDER } from "./client";

export interface JournalEntry {
  idx: number;
  tag: string;
  /** drizzle's created_at for this migration. */
  when: number;
}

/** The migrations this build carries, in order (drizzle's journal). */
export function journalEntries(folder = MIGRATIONS_FOLDER): JournalEntry[] {
  const journal = JSON.parse(readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as { entries: JournalEntry[] };
  return journal.entries.map(({ idx, tag, when }) => ({ idx, tag, when }));
}

/** This build's version (packages/server/package.json: the same relative path from src/db and dist/bin). */
export function buildVersion(): string {
  try {
    const file = path.join(path.dirname(MIGRATIONS_FOLDER), "..", "..", "package.json");
    return (JSON.parse(readFileSync(file, "utf8")) as { version?: string }).version ?? "unknown";
  } catch {
    return "unknown";
  }
}

/** Anything with pg's `query` (a pool or a client). */
interface Queryable {
  query<R extends object>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
}

/** The stamp `stampSchema` writes: the Balcão version and the newest migration it knew when it migrated. */
export interface SchemaStamp {
  app: "balcao";
  version: string;
  schema: string;
}

/** The database holds migrations this build does not know: a newer Balcão migrated it. */
export class SchemaTooNewError extends Error {
  constructor(
    message: string,
    /** How many applied migrations are newer than this build's newest. */
    readonly unknown: number,
    /** The schema the database is at, when the newer version stamped it. */
    readonly stamp?: SchemaStamp,
  ) {
    super(message);
    this.name = "SchemaTooNewError";
  }
}

async function migrationsTableExists(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ exists: boolean }>("SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS exists");
  return rows[0]?.exists === true;
}

async function readStamp(db: Queryable): Promise<SchemaStamp | undefined> {
  const { rows } = await db.query<{ comment: string | null }>(
    "SELECT obj_description('drizzle.__drizzle_migrations'::regclass, 'pg_class') AS comment",
  );
  try {
    const stamp = JSON.parse(rows[0]?.comment ?? "") as Partial<SchemaStamp>;
    if (stamp.app === "balcao" && typeof stamp.version === "string" && typeof stamp.schema === "string") return stamp as SchemaStamp;
  } catch {
    // no stamp, or not ours
  }
  return undefined;
}

/**
 * Throws SchemaTooNewError when the database has applied migrations newer than the newest this build carries
 * (`entries`: the journal; tests pass a shortened one). Nothing is changed either way.
 */
export async function assertSchemaNotNewer(db: Queryable, entries: JournalEntry[] = journalEntries()): Promise<void> {
  if (!(await migrationsTableExists(db))) return;
  const newest = entries[entries.length - 1];
  if (!newest) return;
  const { rows } = await db.query<{ n: string }>("SELECT count(*) AS n FROM drizzle.__drizzle_migrations WHERE created_at > $1", [newest.when]);
  const unknown = Number(rows[0]?.n ?? 0);
  if (unknown === 0) return;
  const stamp = await readStamp(db);
  const needed = stamp
    ? `It was migrated by Balcão ${stamp.version} (schema ${stamp.schema}): run Balcão ${stamp.version} or newer`
    : "Run the newer Balcão version that migrated it";
  throw new SchemaTooNewError(
    `The database has ${unknown} migration${unknown === 1 ? "" : "s"} newer than this Balcão ${buildVersion()} knows ` +
      `(its newest is ${newest.tag}). ${needed}, or restore a backup taken before that upgrade ` +
      "(docs/operations.md, Upgrading). Nothing was changed.",
    unknown,
    stamp,
  );
}

/** Records this build's version and newest migration on drizzle's table (read by older builds' refusal). */
export async function stampSchema(db: Queryable, entries: JournalEntry[] = journalEntries()): Promise<void> {
  const newest = entries[entries.length - 1];
  if (!newest || !(await migrationsTableExists(db))) return;
  const stamp: SchemaStamp = { app: "balcao", version: buildVersion(), schema: newest.tag };
  const current = await readStamp(db);
  if (current && current.version === stamp.version && current.schema === stamp.schema) return;
  // COMMENT takes no parameters: the JSON is quoted as a string literal.
  await db.query(`COMMENT ON TABLE drizzle.__drizzle_migrations IS '${JSON.stringify(stamp).replaceAll("'", "''")}'`);
}
