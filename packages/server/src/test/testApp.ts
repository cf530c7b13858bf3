import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import pg from "pg";
import { inject } from "vitest";
import { buildApp, type App } from "../app";
import type { Config } from "../config/env";
import { createContext, type AppContext } from "../context";
import { openDatabase, type Database } from "../db/client";
import { withDatabase } from "./globalSetup";
import { testConfig } from "./testConfig";

/** A private database for one test file: a copy of the migrated template (see globalSetup). */
async function openTestDatabase(): Promise<{ database: Database; drop(): Promise<void> }> {
  const url = inject("postgresUrl");
  const template = inject("postgresTemplate");
  if (!url || !template) throw new Error("globalSetup did not provide a database template");
  const name = `balcao_t_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  // A throwaway database: its commits need not wait for the disk. The run's embedded cluster already runs without
  // fsync (globalSetup); a PostgreSQL server (TEST_DATABASE_URL, as CI's) would flush every commit of every test.
  await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
  const database = await openDatabase({ databaseUrl: withDatabase(url, name) });
  return {
    database,
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
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
