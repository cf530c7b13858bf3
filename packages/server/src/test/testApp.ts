import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import pg from "pg";
import { inject } from "vitest";
import { buildApp, type App } from "../app";
import type { Config } from "../config/env";
import { createContext, type AppContext } from "../context";
import { openDatabase, type Database } from "../db/client";
import { TEMPLATE_PREFIX, TEST_DATABASE_PREFIX, withDatabase } from "./globalSetup";
import { testConfig } from "./testConfig";

/**
 * The database the next test file of this worker gets, copied while the current file runs. On the CI machine's
 * PostgreSQL server (data on disk, fsync on), a copy of the template took 0.5–0.8 s, mostly waiting on the disk:
 * each file's setup waited for it (~100 files). Started at the first take; the worker's last one is dropped with
 * the run's leftovers (globalSetup).
 */
let spare: Promise<string> | undefined;
/** Drops run behind the tests too; a drop still running when the worker ends is finished by globalSetup's. */
let drops: Promise<unknown> = Promise.resolve();

/** Runs `work` on a connection of its own to the server's maintenance database (CREATE and DROP DATABASE). */
async function withAdmin(url: string, work: (admin: pg.Client) => Promise<unknown>): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await work(admin);
  } finally {
    await admin.end();
  }
}

/** A copy of the migrated template (see globalSetup), named for the run so that its teardown finds leftovers. */
async function copyTemplate(url: string, template: string): Promise<string> {
  const name = `${template.replace(TEMPLATE_PREFIX, TEST_DATABASE_PREFIX)}_${randomBytes(4).toString("hex")}`;
  await withAdmin(url, async (admin) => {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    // A throwaway database: its commits need not wait for the disk. The run's embedded cluster already runs without
    // fsync (globalSetup); a PostgreSQL server (TEST_DATABASE_URL, as CI's) would flush every commit of every test.
    await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
  });
  return name;
}

/** A private database for one test file. */
async function openTestDatabase(): Promise<{ database: Database; drop(): Promise<void> }> {
  const url = inject("postgresUrl");
  const template = inject("postgresTemplate");
  if (!url || !template) throw new Error("globalSetup did not provide a database template");
  const name = await (spare ?? copyTemplate(url, template));
  spare = copyTemplate(url, template);
  // Awaited by the next take, which sees its error; until then it must not count as unhandled.
  spare.catch(() => undefined);
  const database = await openDatabase({ databaseUrl: withDatabase(url, name) });
  return {
    database,
    drop: async () => {
      drops = drops.then(() => withAdmin(url, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))).catch(() => undefined);
    },
  };
}

export interface TestApp {
  app: App;
  ctx: AppContext;
  config: Config;
  close(): Promise<void>;
}

/** The real app (all routes, realtime, error handling) on a fresh database, not listening unless asked. */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const { config, dataDir } = testConfig("balcao-app-", env);
  const { database, drop } = await openTestDatabase();
  const ctx = createContext(config, database);
  const app = await buildApp(ctx);
  await app.ready();
  return {
    app,
    ctx,
    config,
    close: async () => {
      await app.close();
      await database.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
