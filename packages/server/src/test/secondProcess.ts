/**
 * A second app instance on a test app's database, with its own pool: two processes behind a load balancer
 * in one test (the relays' tests). Close it before the first.
 */
import { buildApp, type App } from "../app";
import { createContext, type AppContext } from "../context";
import { openDatabase, type Database } from "../db/client";
import type { TestApp } from "./testApp";

export interface SecondProcess {
  app: App;
  ctx: AppContext;
  database: Database;
}

/** `config` overrides the first app's settings for this instance only (e.g. a shorter relay timeout). */
export async function secondProcess(t: TestApp, config: Partial<TestApp["config"]> = {}): Promise<SecondProcess> {
  const pool = t.ctx.database.pool as unknown as { options: { connectionString: string } };
  const database = await openDatabase({ databaseUrl: pool.options.connectionString });
  const ctx = createContext({ ...t.config, ...config }, database);
  const app = await buildApp(ctx);
  await app.ready();
  return { app, ctx, database };
}
