import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import * as schema from "./schema";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** Anything a query can run on: the database or an open transaction. */
export type DbOrTx = Db | Tx;

export const MIGRATIONS_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");
/** Serialises migrations when several processes start at once on one PostgreSQL. */
const MIGRATION_LOCK_KEY = 7_243_001;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** The pg pool (server mode only), shared with the Socket.IO adapter. */
  pool?: pg.Pool;
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: the whole data directory as a tarball (test templates, backups). */
  dump?(): Promise<Blob>;
}

export interface OpenOptions {
  databaseUrl?: string;
  /** Directory for the embedded database (ignored with databaseUrl). */
  dataDir?: string;
  /** A dumped, already-migrated PGlite data directory to start from (tests). */
  loadDataDir?: Blob | File;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  return openPglite(options);
}

async function openPglite(options: OpenOptions): Promise<Database> {
  let dir: string | undefined;
  if (options.dataDir && !options.loadDataDir) {
    dir = path.join(options.dataDir, "pgdata");
    mkdirSync(dir, { recursive: true });
  }
  const extensions = { pg_trgm };
  const client = await PGlite.create(dir, options.loadDataDir ? { loadDataDir: options.loadDataDir, extensions } : { extensions });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    migrate: async () => {
      await migratePglite(db as never, { migrationsFolder: MIGRATIONS_FOLDER });
    },
    ping: async () => {
      await client.query("select 1");
    },
    close: async () => {
      await client.close();
    },
    dump: async () => (await client.dumpDataDir("gzip")) as Blob,
  };
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client dropped by the server (restart, failover, admin command) must not crash the process;
  // the pool replaces it on the next query.
  pool.on("error", (err) => console.warn(`PostgreSQL pool: idle client error: ${err.message}`));
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: "postgres",
    pool,
    migrate: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
        await migratePg(drizzlePg(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
      } finally {
        await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => undefined);
        await client.end();
      }
    },
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: async () => {
      await pool.end();
    },
  };
}

/** PostgreSQL's unique_violation, as raised by both drivers (drizzle may wrap it in `cause`). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  let e = err as { code?: string; constraint?: string; cause?: unknown } | undefined;
  for (let i = 0; e && i < 3; i++) {
    if (e.code === "23505") return !constraint || e.constraint === constraint || String((e as Error).message).includes(constraint);
    e = e.cause as typeof e;
  }
  return false;
}
