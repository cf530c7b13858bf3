import { accessSync, constants, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import pg from "pg";
import { buildApp } from "../app";
import { createContext } from "../context";
import { openDatabase, type Database } from "../db/client";
import { startEmbeddedPostgres } from "../db/embedded";
import { testConfig } from "./testConfig";

declare module "vitest" {
  export interface ProvidedContext {
    /** PostgreSQL server URL (the machine's with TEST_DATABASE_URL, else the embedded one of this run). */
    postgresUrl?: string;
    /** The migrated template database each test file clones. */
    postgresTemplate?: string;
  }
}

/**
 * Migrates once per run and hands each test file a copy (`CREATE DATABASE … TEMPLATE`): migrations take
 * seconds, a copy a fraction of one. Without TEST_DATABASE_URL the run starts one embedded PostgreSQL
 * (the product's default engine) in a temporary directory, without fsync, and stops it at the end.
 */
export default async function setup(project: TestProject) {
  let url = process.env.TEST_DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!url) {
    const dir = mkdtempSync(path.join(throwawayRoot(), "balcao-test-pg-"));
    const server = await startEmbeddedPostgres({
      dir: path.join(dir, "postgres"),
      fsync: false,
      maxConnections: 100,
      sharedBuffers: "64MB",
      log: () => undefined,
    });
    url = server.url();
    stopEmbedded = async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    };
  }
  const template = `${TEMPLATE_PREFIX}${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${template}`);
  await admin.query(`CREATE DATABASE ${template}`);
  const db = await openDatabase({ databaseUrl: withDatabase(url, template) });
  await db.migrate();
  await bootOnce(db);
  await db.close();
  project.provide("postgresUrl", url);
  project.provide("postgresTemplate", template);
  return async () => {
    // The test files' copies are named after the template (test/testApp.ts); a worker's last spare is left to this.
    // A copy a worker started just before it ended still runs (the server notices the closed connection only at
    // the end): wait for it, else it would appear after the list below was read.
    const copying = `CREATE DATABASE ${TEST_DATABASE_PREFIX}${process.pid}_%`;
    for (let waited = 0; waited < 30_000; waited += 100) {
      const active = await admin.query("SELECT 1 FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1", [copying]);
      if (active.rowCount === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const { rows } = await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE $1", [
      `${TEST_DATABASE_PREFIX}${process.pid}_%`,
    ]);
    for (const row of rows) await admin.query(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`).catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    await admin.end();
    await stopEmbedded?.();
  };
}

/**
 * Boots the app once on the template, so that the job runner's schema and queues (pg-boss tables, created
 * with DDL on a first boot: ~0.8 s of every test file's setup) come with each copy. What a boot writes
 * besides them is removed, so that a copy starts as a migrated database does.
 */
async function bootOnce(db: Database): Promise<void> {
  const { config, dataDir } = testConfig("balcao-template-");
  const app = await buildApp(createContext(config, db));
  await app.ready();
  await app.close();
  await db.pool.query("DELETE FROM pgboss.schedule; DELETE FROM pgboss.job; DELETE FROM outbox_cursors");
  rmSync(dataDir, { recursive: true, force: true });
}

/**
 * Where the run's throwaway cluster lives: in memory (/dev/shm) where the machine has it. On this 2-core CI
 * machine's disk, each test file's `CREATE DATABASE … TEMPLATE` took ~430 ms (mostly the kernel creating and
 * opening the copy's ~1,200 files); in memory it takes a few tens of milliseconds. Nothing of it outlives the run.
 */
function throwawayRoot(): string {
  try {
    accessSync(SHARED_MEMORY, constants.W_OK);
    return SHARED_MEMORY;
  } catch {
    return os.tmpdir();
  }
}
const SHARED_MEMORY = "/dev/shm";

/** The run's migrated template is `balcao_tpl_<pid>`; each test file's copy `balcao_t_<pid>_<random>`. */
export const TEMPLATE_PREFIX = "balcao_tpl_";
export const TEST_DATABASE_PREFIX = "balcao_t_";

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
