import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import pino, { type Logger } from "pino";
import { EmbeddedPostgresError, runningServer, startEmbeddedPostgres, type EmbeddedPostgres } from "./embedded";
import { guardPool } from "./resilience";
import { assertSchemaNotNewer, stampSchema } from "./schemaVersion";

export type Db = PgDatabase<PgQueryResultHKT>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** Anything a query can run on: the database or an open transaction. */
export type DbOrTx = Db | Tx;

export const MIGRATIONS_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");
/** Serialises migrations when several processes start at once on one PostgreSQL. */
const MIGRATION_LOCK_KEY = 7_243_001;
/** The embedded cluster lives in DATA_DIR/postgres; the application's database in it is `balcao`. */
export const EMBEDDED_SUBDIR = "postgres";
const EMBEDDED_DATABASE = "balcao";
const EMBEDDED_POOL_SIZE = 6;

export { EmbeddedPostgresError };

export interface Database {
  db: Db;
  /** "embedded": the PostgreSQL server this process started in DATA_DIR; "postgres": DATABASE_URL. */
  kind: "embedded" | "postgres";
  /** The pg pool behind `db` (the job runner and, with DATABASE_URL, the Socket.IO adapter use it). */
  pool: pg.Pool;
  /** The embedded server (kind "embedded" only). */
  embedded?: EmbeddedPostgres;
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenOptions {
  databaseUrl?: string;
  /** DATA_DIR: the embedded server keeps its cluster in DATA_DIR/postgres (ignored with databaseUrl). */
  dataDir?: string;
  /** Where the database layer reports (defaults to its own pino logger at LOG_LEVEL). */
  log?: Logger;
}

function defaultLog(): Logger {
  return pino({ name: "database", level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info") });
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  const log = options.log ?? defaultLog();
  if (options.databaseUrl) return openPostgres(options.databaseUrl, "postgres", log);
  if (!options.dataDir) throw new Error("openDatabase: dataDir or databaseUrl is required");
  refuseLegacyPglite(options.dataDir);
  const server = await startEmbeddedPostgres({
    dir: path.join(options.dataDir, EMBEDDED_SUBDIR),
    database: EMBEDDED_DATABASE,
    log: (line) => log.info(line),
    onUnexpectedExit: (detail) => {
      // Nothing works without the database: stop, so a supervisor restarts us (PostgreSQL then recovers).
      log.fatal(`The embedded PostgreSQL stopped unexpectedly (${detail}); Balcão stops too.`);
      process.exit(1);
    },
  });
  try {
    // Each pooled connection is a PostgreSQL process of ~2-3 MB: a small install needs few. Once opened they stay
    // open (no idle timeout): a backend closed after 10 s idle was reopened cold by the next burst (its caches and
    // every prepared statement built again), so PostgreSQL's memory went down and back up with the traffic.
    const database = await openPostgres(server.connection(EMBEDDED_DATABASE), "embedded", log, EMBEDDED_POOL_SIZE, 0);
    return {
      ...database,
      embedded: server,
      close: async () => {
        await database.close();
        await server.stop();
      },
    };
  } catch (err) {
    await server.stop();
    throw err;
  }
}

/**
 * For operator commands (cli/): when a Balcão process already runs the embedded server of DATA_DIR, its
 * database through that server's socket (a second server on the same directory is refused); otherwise the
 * same as openDatabase (with DATABASE_URL, or starting the embedded server for the command's time).
 */
export async function openDatabaseForCommand(options: OpenOptions): Promise<Database> {
  if (!options.databaseUrl && options.dataDir) {
    const running = runningServer(path.join(options.dataDir, EMBEDDED_SUBDIR));
    if (running) return openPostgres({ ...running, database: EMBEDDED_DATABASE }, "embedded", options.log ?? defaultLog(), 2);
  }
  return openDatabase(options);
}

/**
 * Balcão up to 0.1 kept its data in an embedded PGlite database (DATA_DIR/pgdata). This version cannot
 * read it: refuse to start rather than start empty beside it, and never touch it.
 */
function refuseLegacyPglite(dataDir: string): void {
  const legacy = path.join(dataDir, "pgdata");
  if (!existsSync(legacy) || readdirSync(legacy).length === 0) return;
  throw new EmbeddedPostgresError(
    `${legacy} holds a database from an earlier Balcão version (embedded PGlite), which this version no longer runs. ` +
      "Nothing was changed. To keep that data, copy it into the new embedded PostgreSQL with " +
      '`npm run migrate-pglite` (see docs/operations.md, "Moving from PGlite"); to start afresh instead, ' +
      `move ${legacy} out of DATA_DIR.`,
  );
}

async function openPostgres(
  connection: string | pg.ClientConfig,
  kind: Database["kind"],
  log: Logger,
  poolSize = 10,
  /** pg's default: an idle connection is closed after 10 s; 0 keeps it. */
  idleTimeoutMillis = 10_000,
): Promise<Database> {
  const config: pg.PoolConfig = typeof connection === "string" ? { connectionString: connection } : { ...connection };
  const pool = new pg.Pool({ ...config, max: poolSize, idleTimeoutMillis });
  // An idle client dropped by the server (restart, failover, admin command) must not crash the process;
  // the pool replaces it on the next query.
  pool.on("error", (err) => log.warn(`PostgreSQL pool: idle client error: ${err.message}`));
  // A client in use (a transaction, a query, a LISTEN) when the server drops it emits 'error' with no pool
  // listener attached, and Node ends the process on an unheard 'error' (issue 11: "terminating connection
  // due to administrator command" killed the server); and its holder may never give it back (db/resilience.ts).
  guardPool(pool);
  // Without a `schema`: the relational query API is not used, and with one every transaction built a query builder
  // per table (issue 20).
  const db = drizzlePg(pool) as unknown as Db;
  return {
    db,
    kind,
    pool,
    migrate: async () => {
      const client = new pg.Client(config);
      await client.connect();
      try {
        await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
        // A database a newer Balcão migrated is refused, not run on (db/schemaVersion.ts).
        await assertSchemaNotNewer(client);
        await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_FOLDER });
        await stampSchema(client).catch((err: Error) => log.warn(`could not record the schema version: ${err.message}`));
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
