/**
 * A statement built once runs on whichever handle it is given: inside a transaction it sees that transaction's
 * uncommitted rows and goes with its rollback; on the pool it sees only what is committed.
 */
import { eq, sql } from "drizzle-orm";
import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/testApp";
import type { DbOrTx } from "./client";
import { namedQuery, statement } from "./statement";

const probes = pgTable("statement_probes", { companyId: integer("company_id").notNull(), label: text("label").notNull() });

let t: TestApp;
const db = () => t.ctx.database.db;

beforeAll(async () => {
  t = await createTestApp();
  await t.ctx.database.pool.query("create table statement_probes (company_id int not null, label text not null)");
});
afterAll(async () => {
  await t?.close();
});

const labelsOf = statement((handle) =>
  handle
    .select({ label: probes.label })
    .from(probes)
    .where(eq(probes.companyId, sql.placeholder("companyId")))
    .orderBy(probes.label)
    .prepare("statement_test_labels"),
);
const countOf = namedQuery<{ n: number }>("statement_test_count", "select count(*)::int as n from statement_probes where company_id = $1");
const labels = async (handle: DbOrTx, companyId: number) => (await labelsOf(handle).execute({ companyId })).map((row) => row.label);
const count = async (handle: DbOrTx, companyId: number) => (await countOf(handle, [companyId]))[0]!.n;

class RolledBack extends Error {}

describe("statement built once", () => {
  it("runs in the transaction it is given: its uncommitted rows, gone with its rollback", async () => {
    await expect(
      db().transaction(async (tx) => {
        await tx.insert(probes).values({ companyId: 1, label: "draft" });
        expect(await labels(tx, 1)).toEqual(["draft"]);
        expect(await count(tx, 1)).toBe(1);
        // The pool's other connections do not see it before the commit.
        expect(await labels(db(), 1)).toEqual([]);
        expect(await count(db(), 1)).toBe(0);
        throw new RolledBack();
      }),
    ).rejects.toBeInstanceOf(RolledBack);
    expect(await labels(db(), 1)).toEqual([]);
    expect(await count(db(), 1)).toBe(0);
  });

  it("takes each call's values, on the pool and in transactions, built first on either", async () => {
    await db().transaction(async (tx) => {
      await tx.insert(probes).values([
        { companyId: 2, label: "b" },
        { companyId: 2, label: "a" },
        { companyId: 3, label: "c" },
      ]);
      expect(await labels(tx, 3)).toEqual(["c"]);
    });
    expect(await labels(db(), 2)).toEqual(["a", "b"]);
    expect(await labels(db(), 3)).toEqual(["c"]);
    expect(await count(db(), 2)).toBe(2);
    // Two transactions at once, each on its own connection, each reading its own new row.
    const [four, five] = await Promise.all(
      [4, 5].map((companyId) =>
        db().transaction(async (tx) => {
          await tx.insert(probes).values({ companyId, label: `only ${companyId}` });
          return { own: await labels(tx, companyId), count: await count(tx, companyId) };
        }),
      ),
    );
    expect(four).toEqual({ own: ["only 4"], count: 1 });
    expect(five).toEqual({ own: ["only 5"], count: 1 });
  });
});
