/**
 * A statement built once runs on whichever handle it is given: inside a transaction it sees that transaction's
 * uncommitted rows and goes with its rollback; on the pool it sees only what is committed.
 */
import { eq, sql } from "drizzle-orm";
import { alias, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/testApp";
import type { DbOrTx } from "./client";
import { namedQuery, statement } from "./statement";

const probes = pgTable("statement_probes", { companyId: integer("company_id").notNull(), label: text("label").notNull() });
const owners = pgTable("statement_owners", {
  id: integer("id").notNull(),
  name: text("name").notNull(),
  bornAt: timestamp("born_at", { withTimezone: true }),
  meta: jsonb("meta"),
});
const pets = pgTable("statement_pets", { id: integer("id").notNull(), ownerId: integer("owner_id"), name: text("name") });
const friend = alias(owners, "friend");

let t: TestApp;
const db = () => t.ctx.database.db;

beforeAll(async () => {
  t = await createTestApp();
  await t.ctx.database.pool.query(`
    create table statement_probes (company_id int not null, label text not null);
    create table statement_owners (id int not null, name text not null, born_at timestamptz, meta jsonb);
    create table statement_pets (id int not null, owner_id int, name text);
    insert into statement_owners values (1, 'Ana', '2001-02-03T04:05:06.789Z', '{"a": [1, 2]}'), (2, 'Bia', null, null), (3, 'Caio', null, '"x"');
    -- Pet 11 has no name (a joined object whose first column is null); Tom's owner does not exist (the full join's other side).
    insert into statement_pets values (10, 1, 'Lua'), (11, 3, null), (12, 99, 'Tom');`);
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

describe("the row mapper compiled once per statement", () => {
  /** One query, run through statement() (the compiled mapper) and as drizzle's own prepared query. */
  const both = <R>(name: string, build: (handle: DbOrTx) => { prepare(name: string): { execute(): Promise<R> } }) => ({
    compiled: statement((handle) => build(handle).prepare(`${name}_compiled`))(db()).execute(),
    drizzle: build(db()).prepare(`${name}_drizzle`).execute(),
  });

  it("maps every row as drizzle does: left and full joins that found nothing, objects across tables, expressions, types", async () => {
    const queries = [
      both("statement_test_left", (handle) =>
        handle
          .select({
            owner: owners,
            pet: { id: pets.id, name: pets.name },
            // First column null (Caio's pet has no name): drizzle reads the whole object as "no row".
            petByName: { name: pets.name, id: pets.id },
            // Two tables in one object: never nulled, though its first column reads null (Bia has no pet).
            pair: { petName: pets.name, ownerName: owners.name },
            friend: { id: friend.id, bornAt: friend.bornAt },
            loud: sql<string>`upper(${owners.name})`,
            petCount: sql<number>`(select count(*) from statement_pets p where p.owner_id = ${owners.id})`.mapWith(Number),
          })
          .from(owners)
          .leftJoin(pets, eq(pets.ownerId, owners.id))
          .leftJoin(friend, eq(friend.id, sql`${owners.id} - 1`))
          .orderBy(owners.id),
      ),
      both("statement_test_full", (handle) =>
        handle
          .select({ owner: { id: owners.id, name: owners.name, meta: owners.meta }, pet: pets })
          .from(owners)
          .fullJoin(pets, eq(pets.ownerId, owners.id))
          .orderBy(sql`${owners.id} nulls last`, pets.id),
      ),
      both("statement_test_inner", (handle) =>
        handle
          .select({ pet: pets, owner: { name: owners.name } })
          .from(pets)
          .innerJoin(owners, eq(owners.id, pets.ownerId))
          .orderBy(pets.id),
      ),
    ];
    const [left, full, inner] = await Promise.all(
      queries.map(async ({ compiled, drizzle }) => ({ compiled: await compiled, drizzle: await drizzle })),
    );
    for (const { compiled, drizzle } of [left!, full!, inner!]) expect(compiled).toStrictEqual(drizzle);
    // What the comparison covered: each kind of null the mapping decides.
    expect(left!.compiled).toMatchObject([
      { owner: { name: "Ana", bornAt: new Date("2001-02-03T04:05:06.789Z"), meta: { a: [1, 2] } }, pet: { name: "Lua" }, friend: null, petCount: 1 },
      { owner: { name: "Bia", bornAt: null, meta: null }, pet: null, petByName: null, pair: { petName: null, ownerName: "Bia" }, friend: { id: 1 } },
      { owner: { name: "Caio" }, pet: { id: 11, name: null }, petByName: null, loud: "CAIO" },
    ]);
    expect(full!.compiled).toContainEqual({ owner: null, pet: { id: 12, ownerId: 99, name: "Tom" } });
    expect(full!.compiled).toContainEqual({ owner: { id: 2, name: "Bia", meta: null }, pet: null });
    expect(inner!.compiled).toHaveLength(2);
  });
});
