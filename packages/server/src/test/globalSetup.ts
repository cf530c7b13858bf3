import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import pg from "pg";
import { openDatabase } from "../db/client";

declare module "vitest" {
  export interface ProvidedContext {
    /** PGlite: a dumped, migrated data directory every test file starts from. */
    pgliteTemplateFile?: string;
    /** PostgreSQL: server URL and the migrated template database each test file clones. */
    postgresUrl?: string;
    postgresTemplate?: string;
  }
}

/**
 * Migrates once per run and hands each test file a copy: initdb + migrations take seconds,
 * a copy well under one (DESIGN §2 install notes).
 */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const template = `balcao_tpl_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${template}`);
    await admin.query(`CREATE DATABASE ${template}`);
    const db = await openDatabase({ databaseUrl: withDatabase(url, template) });
    await db.migrate();
    await db.close();
    project.provide("postgresUrl", url);
    project.provide("postgresTemplate", template);
    return async () => {
      const { rows } = await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE $1", [`balcao_t_${process.pid}_%`]);
      for (const row of rows) await admin.query(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`).catch(() => undefined);
      await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
      await admin.end();
    };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), "balcao-test-"));
  const database = await openDatabase({});
  await database.migrate();
  const dump = await database.dump?.();
  await database.close();
  if (!dump) throw new Error("PGlite dump unavailable");
  const file = path.join(dir, "template.tar.gz");
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide("pgliteTemplateFile", file);
  return () => rmSync(dir, { recursive: true, force: true });
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
