/**
 * `npm run migrate-pglite`: copies a database of an earlier Balcão (embedded PGlite, DATA_DIR/pgdata) into
 * the embedded PostgreSQL (DATA_DIR/postgres), then renames DATA_DIR/pgdata to pgdata.migrated-<time>
 * (kept, never deleted) so the server starts on the copy.
 *
 * Both sides are brought to the same schema by the same migrations (the PGlite side on a scratch copy:
 * the original is only read), then every table is copied row for row as JSON, with foreign keys checked
 * only at the end (session_replication_role = replica inside one transaction), sequences moved past the
 * copied ids, and row counts compared. PGlite is not a dependency any more: install it for this run with
 * `npm install --no-save @electric-sql/pglite@0.5.16`.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../config/env";
import { EMBEDDED_SUBDIR, MIGRATIONS_FOLDER } from "./client";
import { EmbeddedPostgresError, startEmbeddedPostgres } from "./embedded";
import pg from "pg";

const PGLITE_VERSION = "0.5.16";
const BATCH = 2000;

interface PgliteLike {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  close(): Promise<void>;
}

type OpenPglite = (dir: string) => Promise<PgliteLike>;

async function loadPglite(): Promise<OpenPglite> {
  const names = ["@electric-sql/pglite", "@electric-sql/pglite/contrib/pg_trgm"];
  try {
    const mod = (await import(names[0]!)) as { PGlite: { create(dir: string, options: object): Promise<PgliteLike> } };
    const trgm = (await import(names[1]!)) as { pg_trgm: unknown };
    return (dir) => mod.PGlite.create(dir, { extensions: { pg_trgm: trgm.pg_trgm } });
  } catch {
    throw new EmbeddedPostgresError(
      `Reading the old database needs PGlite, which Balcão no longer installs. Run\n` +
        `  npm install --no-save @electric-sql/pglite@${PGLITE_VERSION}\nthen npm run migrate-pglite again.`,
    );
  }
}

async function migrateSource(db: PgliteLike): Promise<void> {
  const [{ drizzle }, { migrate }] = await Promise.all([import("drizzle-orm/pglite"), import("drizzle-orm/pglite/migrator")]);
  await migrate(drizzle(db as never) as never, { migrationsFolder: MIGRATIONS_FOLDER });
}

interface Column {
  table: string;
  column: string;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const legacy = path.join(config.dataDir, "pgdata");
  const target = path.join(config.dataDir, EMBEDDED_SUBDIR);
  if (config.databaseUrl) throw new EmbeddedPostgresError("DATABASE_URL is set: this copies into the embedded PostgreSQL only. Unset it.");
  if (!existsSync(legacy) || readdirSync(legacy).length === 0)
    throw new EmbeddedPostgresError(`There is no PGlite database in ${legacy}: nothing to migrate.`);
  if (existsSync(target) && readdirSync(target).length > 0)
    throw new EmbeddedPostgresError(`${target} already holds a database: move it out of DATA_DIR first (the copy goes into an empty one).`);

  const openPglite = await loadPglite();
  // The original is only read: schema migrations run on a scratch copy.
  const scratch = mkdtempSync(path.join(os.tmpdir(), "balcao-pglite-"));
  cpSync(legacy, scratch, { recursive: true });
  console.log(`Reading ${legacy} (through a copy in ${scratch})`);
  const source = await openPglite(scratch);
  const server = await startEmbeddedPostgres({ dir: target, database: "balcao", log: (line) => console.log(line) });
  const client = new pg.Client(server.connection("balcao"));
  let ok = false;
  try {
    await migrateSource(source);
    await client.connect();
    const { migrate } = await import("drizzle-orm/node-postgres/migrator");
    const { drizzle } = await import("drizzle-orm/node-postgres");
    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });

    const { rows: tables } = await client.query<{ table: string }>(
      "SELECT table_name AS table FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1",
    );
    const { rows: columns } = await client.query<Column & { generated: string; identity: string | null }>(
      `SELECT table_name AS table, column_name AS column, is_generated AS generated, identity_generation AS identity
         FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
    );
    const ident = (name: string) => client.escapeIdentifier(name);
    await client.query("BEGIN");
    // Rows arrive in table order, not dependency order: constraints are enforced by the counts and the
    // final check below, not row by row.
    await client.query("SET LOCAL session_replication_role = replica");
    await client.query(`TRUNCATE ${tables.map((t) => ident(t.table)).join(", ")}`);
    let total = 0;
    for (const { table } of tables) {
      const cols = columns.filter((c) => c.table === table && c.generated === "NEVER").map((c) => ident(c.column));
      const list = cols.join(", ");
      let copied = 0;
      for (let offset = 0; ; offset += BATCH) {
        const { rows } = await source.query<{ batch: string | null }>(
          `SELECT json_agg(t)::text AS batch FROM (SELECT * FROM ${ident(table)} ORDER BY ctid LIMIT ${BATCH} OFFSET ${offset}) t`,
        );
        const batch = rows[0]?.batch;
        if (!batch) break;
        const res = await client.query(
          `INSERT INTO ${ident(table)} (${list}) OVERRIDING SYSTEM VALUE SELECT ${list} FROM json_populate_recordset(NULL::${ident(table)}, $1::json)`,
          [batch],
        );
        copied += res.rowCount ?? 0;
      }
      const { rows: count } = await source.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${ident(table)}`);
      if (count[0]!.n !== copied) throw new Error(`${table}: ${copied} rows copied of ${count[0]!.n}`);
      total += copied;
      if (copied) console.log(`  ${table}: ${copied}`);
    }
    // Ids keep counting after the copied ones.
    const { rows: sequences } = await client.query<{ table: string; column: string; seq: string }>(
      `SELECT c.table_name AS table, c.column_name AS column, pg_get_serial_sequence(quote_ident(c.table_name), c.column_name) AS seq
         FROM information_schema.columns c WHERE c.table_schema = 'public' AND pg_get_serial_sequence(quote_ident(c.table_name), c.column_name) IS NOT NULL`,
    );
    for (const s of sequences)
      await client.query(`SELECT setval($1, COALESCE((SELECT max(${ident(s.column)}) FROM ${ident(s.table)}), 0) + 1, false)`, [s.seq]);
    await client.query("COMMIT");
    // Foreign keys were not checked row by row: check them all now, on the committed copy.
    const { rows: fks } = await client.query<{ name: string; table: string; def: string }>(
      `SELECT conname AS name, conrelid::regclass::text AS table, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE contype = 'f' AND connamespace = 'public'::regnamespace`,
    );
    for (const fk of fks) {
      await client.query(`ALTER TABLE ${fk.table} DROP CONSTRAINT ${ident(fk.name)}`);
      await client.query(`ALTER TABLE ${fk.table} ADD CONSTRAINT ${ident(fk.name)} ${fk.def}`);
    }
    ok = true;
    console.log(`Copied ${total} rows in ${tables.length} tables into ${target}.`);
  } finally {
    await client.end().catch(() => undefined);
    await source.close().catch(() => undefined);
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
    if (!ok) {
      // Leave no half-filled database behind: the next attempt starts from an empty directory again.
      rmSync(target, { recursive: true, force: true });
      console.error(`Nothing was changed in ${legacy}.`);
    }
  }
  const kept = `${legacy}.migrated-${new Date().toISOString().replace(/[:.]/g, "-")}`;
  renameSync(legacy, kept);
  console.log(`The old database is kept, untouched, in ${kept}; delete it once you have checked the new one.`);
}

main().catch((err) => {
  console.error(err instanceof EmbeddedPostgresError ? `Migration stopped: ${err.message}` : err);
  process.exit(1);
});
