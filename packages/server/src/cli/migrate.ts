/** `balcao migrate`: applies the pending SQL migrations and says how many ran (the server also does it on start). */
import pg from "pg";
import type { Database } from "../db/client";
import { assertSchemaNotNewer, journalEntries } from "../db/schemaVersion";
import { configFrom, withDatabase, type Command } from "./common";

/** The migrations this build carries, in order (drizzle's journal). */
export function knownMigrations(): string[] {
  return journalEntries().map((e) => e.tag);
}

/** How many migrations the database has applied (0 on an empty database). */
export async function appliedMigrations(pool: pg.Pool | Database["pool"]): Promise<number> {
  // Two statements: PostgreSQL resolves every table a statement names before running it, CASE or not.
  const { rows } = await pool.query<{ exists: boolean }>("SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS exists");
  if (!rows[0]?.exists) return 0;
  const { rows: counted } = await pool.query<{ n: string }>("SELECT count(*) AS n FROM drizzle.__drizzle_migrations");
  return Number(counted[0]?.n ?? 0);
}

export const migrateCommand: Command = {
  name: "migrate",
  summary: "Apply the pending database migrations, then stop.",
  usage: "balcao migrate",
  help: [
    "Brings the database named by DATABASE_URL (or the embedded one in DATA_DIR) to this version's schema.",
    "Migrations are forward-only and run inside a lock, so several nodes starting together apply each once;",
    "the server also runs them at start. Use this before a rolling restart so no node waits on them.",
    "Take a backup first (balcao backup): the way back from a migration is restoring it.",
  ].join("\n"),
  options: {},
  async run(_args, io) {
    const config = configFrom(io);
    const known = knownMigrations();
    return withDatabase(io, config, async (database) => {
      // A database a newer Balcão migrated: refused with the version it needs (exit 1), nothing changed.
      await assertSchemaNotNewer(database.pool);
      const before = await appliedMigrations(database.pool);
      const started = Date.now();
      await database.migrate();
      const after = await appliedMigrations(database.pool);
      const ran = known.slice(before, after);
      io.out(
        ran.length === 0
          ? `The database is up to date (${after} migrations, latest ${known[after - 1] ?? "none"}).`
          : `Applied ${ran.length} migration${ran.length === 1 ? "" : "s"} in ${((Date.now() - started) / 1000).toFixed(1)} s: ${ran.join(", ")}.`,
      );
      return 0;
    });
  },
};
