import { describe, expect, it } from "vitest";
import { TENANT_TABLES, unscopedTenantTables } from "./tenant";

describe("tenant scoping check", () => {
  it("knows the tenant-owned tables from the schema", () => {
    for (const table of ["tickets", "messages", "contacts", "users", "ticket_tags", "connection_queues"])
      expect(TENANT_TABLES.has(table), table).toBe(true);
    for (const table of ["plans", "helps", "outbox_events"]) expect(TENANT_TABLES.has(table), table).toBe(false);
  });

  it("flags a statement on a tenant table that never names company_id", () => {
    expect(unscopedTenantTables('select "id" from "tickets" where "tickets"."id" = $1')).toEqual(["tickets"]);
    expect(unscopedTenantTables('update "messages" set "ack" = $1 where "id" = $2')).toEqual(["messages"]);
    expect(unscopedTenantTables('select * from "ticket_tags" inner join "tags" on "tags"."id" = "ticket_tags"."tag_id"')).toEqual([
      "ticket_tags",
      "tags",
    ]);
  });

  it("passes scoped statements and tables that belong to no company", () => {
    expect(unscopedTenantTables('select "id" from "tickets" where "tickets"."company_id" = $1 and "tickets"."id" = $2')).toEqual([]);
    expect(unscopedTenantTables('insert into "contacts" ("company_id", "name") values ($1, $2)')).toEqual([]);
    expect(unscopedTenantTables('select * from "plans" where "id" = $1')).toEqual([]);
  });
});
