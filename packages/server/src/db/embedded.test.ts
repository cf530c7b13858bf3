/**
 * The embedded PostgreSQL's lifecycle as an operator meets it: socket only, one owner per data directory,
 * a clean start after the previous owner was killed with SIGKILL, long DATA_DIR paths, and data of the
 * PGlite era refused without being touched, and an online backup that restores by being put in place.
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { backupEmbedded } from "./backup";
import { openDatabase } from "./client";
import { EmbeddedPostgresError, startEmbeddedPostgres, type EmbeddedPostgres } from "./embedded";

const root = mkdtempSync(path.join(os.tmpdir(), "balcao-embedded-test-"));
const started: EmbeddedPostgres[] = [];
const quiet = { log: () => undefined, fsync: false };

afterAll(async () => {
  for (const server of started) await server.stop();
  rmSync(root, { recursive: true, force: true });
});

async function query<T extends pg.QueryResultRow>(server: EmbeddedPostgres, sql: string): Promise<T[]> {
  const client = new pg.Client(server.connection());
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe("embedded PostgreSQL", () => {
  const dir = path.join(root, "a", "postgres");

  it("listens on a Unix socket in its data directory only, and creates the application database", async () => {
    const server = await startEmbeddedPostgres({ ...quiet, dir, database: "balcao" });
    started.push(server);
    expect(server.socketDir).toBe(dir);
    expect(readdirSync(dir)).toContain(".s.PGSQL.5432");
    const [settings] = await query<{ listen: string; version: string }>(
      server,
      "SELECT current_setting('listen_addresses') AS listen, current_setting('server_version_num') AS version",
    );
    expect(settings!.listen).toBe("");
    expect(Number(settings!.version)).toBeGreaterThanOrEqual(180000);
    const dbs = await query<{ datname: string }>(server, "SELECT datname FROM pg_database WHERE datname = 'balcao'");
    expect(dbs).toHaveLength(1);
    // migration 0003 needs pg_trgm: the shipped binaries must have it
    const ext = await query<{ name: string }>(server, "SELECT name FROM pg_available_extensions WHERE name IN ('pg_trgm', 'unaccent') ORDER BY name");
    expect(ext.map((e) => e.name)).toEqual(["pg_trgm", "unaccent"]);
  });

  it("refuses a second start on a data directory in use, naming the owner", async () => {
    const second = startEmbeddedPostgres({ ...quiet, dir });
    await expect(second).rejects.toBeInstanceOf(EmbeddedPostgresError);
    await expect(second).rejects.toThrow(`in use by another Balcão process (PID ${process.pid})`);
  });

  it("stops cleanly: the socket is gone and the directory can be started again", async () => {
    const server = started.pop()!;
    await server.stop();
    expect(readdirSync(dir)).not.toContain(".s.PGSQL.5432");
    expect(readdirSync(dir)).not.toContain("postmaster.pid");
  });

  it("starts after its previous owner was killed with SIGKILL", async () => {
    // Another process starts the server and is killed without any chance to stop it.
    const script = `import { startEmbeddedPostgres } from ${JSON.stringify(path.resolve(import.meta.dirname, "embedded.ts"))};
      await startEmbeddedPostgres({ dir: ${JSON.stringify(dir)}, fsync: false, log: () => undefined });
      console.log("ready"); setInterval(() => {}, 1 << 30);`;
    const owner = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise<void>((resolve, reject) => {
      owner.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && resolve());
      owner.once("exit", (code) => reject(new Error(`owner exited (${code})`)));
    });
    owner.kill("SIGKILL");
    await new Promise((resolve) => owner.once("exit", resolve));
    const server = await startEmbeddedPostgres({ ...quiet, dir });
    started.push(server);
    expect(await query<{ one: number }>(server, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
    await server.stop();
    started.pop();
  });

  it("puts the socket in a short private directory when DATA_DIR's path is too long for one", async () => {
    const long = path.join(root, "d".repeat(60), "e".repeat(40), "postgres");
    const lines: string[] = [];
    const server = await startEmbeddedPostgres({ dir: long, fsync: false, log: (line) => lines.push(line) });
    started.push(server);
    expect(server.socketDir.startsWith(os.tmpdir())).toBe(true);
    expect(lines.join("\n")).toContain("too long for a Unix socket");
    expect(await query<{ one: number }>(server, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
    await server.stop();
    started.pop();
    expect(existsSync(server.socketDir)).toBe(false);
  });

  it("refuses DATA_DIR/pgdata of the PGlite era with what to do, and leaves it untouched", async () => {
    const dataDir = path.join(root, "legacy");
    mkdirSync(path.join(dataDir, "pgdata"), { recursive: true });
    writeFileSync(path.join(dataDir, "pgdata", "PG_VERSION"), "17\n");
    const opening = openDatabase({ dataDir });
    await expect(opening).rejects.toBeInstanceOf(EmbeddedPostgresError);
    await expect(opening).rejects.toThrow(/earlier Balcão version \(embedded PGlite\).*npm run migrate-pglite.*move .*pgdata out of DATA_DIR/s);
    expect(readdirSync(path.join(dataDir, "pgdata"))).toEqual(["PG_VERSION"]);
    expect(readdirSync(dataDir)).toEqual(["pgdata"]);
  });

  it("backs up online while the server runs; the copy, put in place, starts with the data as of the backup", async () => {
    const dataDir = path.join(root, "live");
    const server = await startEmbeddedPostgres({ ...quiet, dir: path.join(dataDir, "postgres"), database: "balcao" });
    const client = new pg.Client(server.connection("balcao"));
    await client.connect();
    try {
      await client.query("CREATE TABLE notes (id serial PRIMARY KEY, body text)");
      await client.query("INSERT INTO notes (body) SELECT 'nota ' || g FROM generate_series(1, 500) g");
      const result = await backupEmbedded(dataDir, path.join(root, "backup"));
      expect(readdirSync(result.dir)).toContain("backup_label");
      // Written after the backup: must not be in it.
      await client.query("INSERT INTO notes (body) VALUES ('depois')");
    } finally {
      await client.end();
      await server.stop();
    }
    const restoredDir = path.join(root, "restored");
    cpSync(path.join(root, "backup"), restoredDir, { recursive: true });
    const restored = await openDatabase({ dataDir: restoredDir });
    try {
      const { rows } = await restored.pool.query<{ n: number; last: string }>(
        "SELECT count(*)::int AS n, max(body) FILTER (WHERE id = 500) AS last FROM notes",
      );
      expect(rows[0]).toEqual({ n: 500, last: "nota 500" });
      // ids keep counting after the restored ones
      const { rows: next } = await restored.pool.query<{ id: number }>("INSERT INTO notes (body) VALUES ('nova') RETURNING id");
      expect(next[0]!.id).toBeGreaterThan(500);
    } finally {
      await restored.close();
    }
  });
});
