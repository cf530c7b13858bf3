/**
 * Tenant scoping in one place.
 *
 * `forCompany(table, companyId)` is the filter every service query on a tenant-owned table starts from, so a
 * query without it stands out in review; `TENANT_TABLES` lists those tables (every table with a company_id
 * column), and `unscopedTenantTables(sql)` is the check the test suite runs on every statement the server
 * code sends (test/tenantGuard.ts): a statement that touches a tenant table and never mentions company_id
 * fails the test that caused it, unless it is one of the few deliberate cross-tenant reads listed there.
 */
import { eq, getTableColumns, getTableName, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import * as schema from "./schema";

type TenantTable = PgTable & { companyId: PgColumn };

export function forCompany(table: TenantTable, companyId: number): SQL {
  return eq(table.companyId, companyId);
}

function isTable(value: unknown): value is PgTable {
  try {
    return typeof getTableName(value as PgTable) === "string" && Object.keys(getTableColumns(value as PgTable)).length > 0;
  } catch {
    return false;
  }
}

/** Tables whose rows belong to one company (outbox rows are read across companies by design). */
export const TENANT_TABLES: ReadonlySet<string> = new Set(
  (Object.values(schema) as unknown[])
    .filter(isTable)
    .filter((table) => Object.values(getTableColumns(table)).some((column) => column.name === "company_id"))
    .map((table) => getTableName(table))
    .filter((name) => name !== "outbox_events"),
);

const TABLE_REFERENCE = /\b(?:from|join|update|into)\s+"?([a-z_][a-z0-9_]*)"?/gi;

/** The tenant tables a statement touches while never mentioning company_id (empty when it is scoped). */
export function unscopedTenantTables(statement: string): string[] {
  if (/company_id/i.test(statement)) return [];
  const touched = new Set<string>();
  for (const match of statement.matchAll(TABLE_REFERENCE)) {
    const table = match[1]!.toLowerCase();
    if (TENANT_TABLES.has(table)) touched.add(table);
  }
  return [...touched];
}
