/**
 * The outbox contract: nothing before commit, nothing lost after it, once per consumer group across
 * processes, commit-safe ordering. Each EventBus below stands for a process (its own pool where it matters).
 */
import { sql } from "drizzle-orm";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/client";
import { createTestApp, type TestApp } from "../test/testApp";
import { Notifications } from "../db/notifications";
import { EventBus, writeOutboxEvents, type DeliveredEvent, type DomainEvent, type WrittenEvents } from "./bus";

declare module "./bus" {
  interface DomainEvents {
    "test.happened": { n: number; tag: string };
    "test.other": { n: number; tag: string };
  }
}

const log = pino({ level: "silent" });
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000, interval: 20 });

let t: TestApp;
let other: Database;
let tagSeq = 0;

beforeAll(async () => {
  t = await createTestApp();
  const pool = t.ctx.database.pool as unknown as { options: { connectionString: string } };
  other = await openDatabase({ databaseUrl: pool.options.connectionString });
});
afterAll(async () => {
  await Promise.all(listeners.map((n) => n.stop()));
  await other.close();
  await t.close();
});

const listeners: Notifications[] = [];
/** A bus as a process has it: with its own LISTEN connection (stopped after the file). */
function newBus(database: Database, pollMs: number): EventBus {
  const notifications = new Notifications(database, log);
  listeners.push(notifications);
  return new EventBus(database, log, notifications, { pollMs });
}

const happened = (tag: string, n: number): DomainEvent => ({ type: "test.happened", companyId: 1, n, tag });

/** A bus with one group that records what it receives (only events of `tag`). */
function busWith(database: Database, group: string, tag: string) {
  const bus = newBus(database, 50);
  const seen: DeliveredEvent[] = [];
  bus.subscribe(group, (e) => {
    if (e.type === "test.happened" && e.tag === tag) seen.push(e);
  });
  return { bus, seen, ns: () => seen.map((e) => (e.type === "test.happened" ? e.n : -1)) };
}

/**
 * Counts the delivery rounds of `group` (by its lock statement), and lists the named statements it sends, until
 * `stop` is called.
 */
function countRounds(group: string): { rounds: () => number; statements: () => string[]; stop: () => void } {
  const statements: string[] = [];
  const clientQuery = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [config, values] = args as [{ name?: string } | undefined, unknown[] | undefined];
    if (config?.name && values?.includes(group)) statements.push(config.name);
    return (clientQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof clientQuery;
  return {
    rounds: () => statements.filter((name) => name === "outbox_round_lock").length,
    statements: () => [...statements],
    stop: () => void (pg.Client.prototype.query = clientQuery),
  };
}

describe("outbox", () => {
  it("delivers recorded events after commit, with an id, and never those of a rolled-back transaction", async () => {
    const tag = `t${++tagSeq}`;
    const { bus, seen, ns } = busWith(t.ctx.database, `g-${tag}`, tag);
    await bus.start();
    try {
      await t.ctx.database.db
        .transaction(async (tx) => {
          await bus.record(tx, happened(tag, 1));
          throw new Error("rollback");
        })
        .catch(() => undefined);
      await t.ctx.database.db.transaction(async (tx) => {
        await bus.record(tx, happened(tag, 2), happened(tag, 3));
      });
      // One write of many events keeps their order (one statement, whatever their number).
      const many = Array.from({ length: 12 }, (_, i) => i + 4);
      await t.ctx.database.db.transaction(async (tx) => {
        await bus.record(tx, ...many.map((n) => happened(tag, n)));
      });
      await poll(ns).toEqual([2, 3, ...many]);
      expect(seen[0]!.eventId).toMatch(/^\d+$/);
      expect(new Set(seen.map((e) => e.eventId)).size).toBe(14);
      expect(seen[13]).toMatchObject(happened(tag, 15));
    } finally {
      await bus.stop();
    }
  });

  it("holds back an event committed early until an older writing transaction ends, then keeps their order", async () => {
    const tag = `t${++tagSeq}`;
    const { bus, ns } = busWith(t.ctx.database, `g-${tag}`, tag);
    await bus.start();
    try {
      let releaseOlder!: () => void;
      const olderMayCommit = new Promise<void>((r) => (releaseOlder = r));
      let olderWrote!: () => void;
      const wrote = new Promise<void>((r) => (olderWrote = r));
      // The older transaction writes first (lower txid) but commits last, on another connection.
      const older = other.db.transaction(async (tx) => {
        await bus.record(tx, happened(tag, 1));
        olderWrote();
        await olderMayCommit;
      });
      await wrote;
      await t.ctx.database.db.transaction(async (tx) => {
        await bus.record(tx, happened(tag, 2));
      });
      bus.kick();
      await new Promise((r) => setTimeout(r, 300));
      expect(ns()).toEqual([]);
      releaseOlder();
      await older;
      await poll(ns).toEqual([1, 2]);
    } finally {
      await bus.stop();
    }
  });

  it("delivers events committed while no process was consuming (a crash between commit and delivery)", async () => {
    const tag = `t${++tagSeq}`;
    const group = `g-${tag}`;
    // The consumer group exists (its cursor is written) and then its process dies.
    const first = busWith(t.ctx.database, group, tag);
    await first.bus.start();
    await first.bus.drain();
    await first.bus.stop();
    // The writer commits and "dies" before anything delivers.
    const writer = newBus(t.ctx.database, 60_000);
    await t.ctx.database.db.transaction(async (tx) => {
      await writer.record(tx, happened(tag, 1), happened(tag, 2));
    });
    expect(first.ns()).toEqual([]);
    // A new process with the same group picks them up.
    const next = busWith(other, group, tag);
    await next.bus.start();
    try {
      await poll(next.ns).toEqual([1, 2]);
    } finally {
      await next.bus.stop();
    }
  });

  it("gives each event to one process per consumer group, and to every group", async () => {
    const tag = `t${++tagSeq}`;
    const a = busWith(t.ctx.database, `g-${tag}`, tag);
    const b = busWith(other, `g-${tag}`, tag);
    const audit = busWith(other, `audit-${tag}`, tag);
    await Promise.all([a.bus.start(), b.bus.start(), audit.bus.start()]);
    try {
      for (let i = 1; i <= 30; i++) (i % 2 ? a.bus : b.bus).publish(happened(tag, i));
      await poll(() => a.seen.length + b.seen.length).toBe(30);
      await poll(() => audit.seen.length).toBe(30);
      await new Promise((r) => setTimeout(r, 200));
      const all = [...a.ns(), ...b.ns()].sort((x, y) => x - y);
      expect(all).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      expect(audit.ns().sort((x, y) => x - y)).toEqual(all);
    } finally {
      await Promise.all([a.bus.stop(), b.bus.stop(), audit.bus.stop()]);
    }
  });

  it("retries a failing handler from the failed event, keeping order", async () => {
    const tag = `t${++tagSeq}`;
    const bus = newBus(t.ctx.database, 50);
    const seen: number[] = [];
    let failOnce = true;
    bus.subscribe(`g-${tag}`, (e) => {
      if (e.type !== "test.happened" || e.tag !== tag) return;
      if (e.n === 2 && failOnce) {
        failOnce = false;
        throw new Error("transient");
      }
      seen.push(e.n);
    });
    await bus.start();
    try {
      bus.publish(happened(tag, 1), happened(tag, 2), happened(tag, 3));
      await poll(() => seen).toEqual([1, 2, 3]);
    } finally {
      await bus.stop();
    }
  });

  it("keeps order per key while different keys run concurrently", async () => {
    const tag = `t${++tagSeq}`;
    const bus = newBus(t.ctx.database, 50);
    const seen: string[] = [];
    bus.subscribe(
      `g-${tag}`,
      async (e) => {
        if (e.type !== "test.happened" || e.tag !== tag) return;
        // Key 0's first event is slow: key 1 must not wait for it, key 0's second must.
        if (e.n === 0) await new Promise((r) => setTimeout(r, 200));
        seen.push(`${e.n % 2}:${e.n}`);
      },
      { key: (e) => (e.type === "test.happened" ? e.n % 2 : undefined) },
    );
    await bus.start();
    try {
      bus.publish(happened(tag, 0), happened(tag, 1), happened(tag, 2), happened(tag, 3));
      await poll(() => seen.length).toBe(4);
      expect(seen.filter((s) => s.startsWith("0:"))).toEqual(["0:0", "0:2"]);
      expect(seen.filter((s) => s.startsWith("1:"))).toEqual(["1:1", "1:3"]);
      expect(seen.indexOf("1:1")).toBeLessThan(seen.indexOf("0:0"));
    } finally {
      await bus.stop();
    }
  });

  it("a group of some types reads only those, runs only on commits that wrote one, and moves past the others", async () => {
    const tag = `t${++tagSeq}`;
    const other = (n: number): DomainEvent => ({ type: "test.other", companyId: 1, n, tag });
    const db = t.ctx.database.db;
    /** This test's events the group's cursor has not passed yet. */
    const unpassed = async (group: string) =>
      (
        (await db.execute(sql`select count(*)::int as n from outbox_events e, outbox_cursors c
          where c.consumer = ${group} and (e.txid, e.id) > (c.txid, c.event_id) and e.payload->>'tag' = ${tag}`)) as unknown as {
          rows: { n: number }[];
        }
      ).rows[0]!.n;
    const cursorOf = async (group: string) =>
      ((await db.execute(sql`select txid::text, event_id::text from outbox_cursors where consumer = ${group}`)) as unknown as { rows: object[] })
        .rows[0];

    // Woken by notifications only (no fallback poll within the test).
    const bus = newBus(t.ctx.database, 60_000);
    const seen: DeliveredEvent[] = [];
    bus.subscribe(`g-${tag}`, (e) => void ("tag" in e && e.tag === tag && seen.push(e)), { types: ["test.happened"] });
    await bus.start();
    // The fallback poll alone moves this group past events of other types: nothing wakes it for them.
    const polled = newBus(t.ctx.database, 50);
    polled.subscribe(`p-${tag}`, () => undefined, { types: ["test.happened"] });
    await polled.start();
    try {
      const before = await cursorOf(`g-${tag}`);
      expect(before).toBeDefined();
      await db.transaction(async (tx) => {
        await bus.record(tx, other(1), other(2));
      });
      await poll(() => unpassed(`p-${tag}`)).toBe(0);
      // The notification of that commit named only test.other: the group ran no round, its cursor stayed.
      expect(await cursorOf(`g-${tag}`)).toEqual(before);
      expect(await unpassed(`g-${tag}`)).toBe(2);

      await db.transaction(async (tx) => {
        await bus.record(tx, other(3), happened(tag, 4));
      });
      await poll(() => seen.map((e) => e.type === "test.happened" && e.n)).toEqual([4]);
      // It read only its type and moved past the others: they are not scanned again.
      await poll(() => unpassed(`g-${tag}`)).toBe(0);
      expect(seen.map((e) => e.type)).toEqual(["test.happened"]);
    } finally {
      await bus.stop();
      await polled.stop();
    }
  });

  it("a kick heard before a round reads its horizon costs no round after it", async () => {
    const tag = `t${++tagSeq}`;
    // Woken by notifications only (no fallback poll within the test), on a pool of its own (`other`).
    const bus = newBus(other, 60_000);
    const seen: number[] = [];
    bus.subscribe(`k-${tag}`, (e) => void (e.type === "test.happened" && e.tag === tag && seen.push(e.n)));
    await bus.start();
    await bus.drain();
    let committed = 0;
    const stopWatching = bus.watch(({ phase, events }) => {
      if (phase === "committed" && events?.some((e) => e.type === "test.happened")) committed++;
    });
    // This group's rounds (the test app's own groups run rounds for these commits too).
    const counted = countRounds(`k-${tag}`);
    // Every connection of the bus's pool held: the round the first commit kicks waits for one, before its lock and
    // horizon, while the next commits kick again.
    const held = await Promise.all(Array.from({ length: other.pool!.options.max }, () => other.pool!.connect()));
    const release = () => held.splice(0).forEach((client) => client.release());
    try {
      for (let n = 1; n <= 3; n++) await t.ctx.database.db.transaction((tx) => writeOutboxEvents(tx, [happened(tag, n)]));
      await poll(() => committed).toBe(3);
      release();
      await poll(() => seen).toEqual([1, 2, 3]);
      await bus.drain();
      // One round read all three: the kicks came before it read its horizon.
      expect(counted.rounds()).toBe(1);
    } finally {
      release();
      counted.stop();
      stopWatching();
      await bus.stop();
    }
  });

  it("a round is its lock and one read when it finds nothing, plus the cursor's move when it delivers", async () => {
    const tag = `t${++tagSeq}`;
    const group = `st-${tag}`;
    // Woken by notifications and kicks only (no fallback poll within the test).
    const bus = newBus(other, 60_000);
    const seen: number[] = [];
    bus.subscribe(group, (e) => void (e.type === "test.happened" && e.tag === tag && seen.push(e.n)));
    await bus.start();
    await bus.drain();
    const counted = countRounds(group);
    try {
      await t.ctx.database.db.transaction((tx) => writeOutboxEvents(tx, [happened(tag, 1)]));
      await poll(() => seen).toEqual([1]);
      await bus.drain();
      // Issue 20: the horizon rides with the lock, the cursor with the events (before: lock, cursor and horizon,
      // events, then a held-back check when there were none).
      expect(counted.statements()).toEqual(["outbox_round_lock", "outbox_round_events", "outbox_round_move"]);
      bus.kick();
      await poll(() => counted.rounds()).toBe(2);
      await bus.drain();
      expect(counted.statements().slice(3)).toEqual(["outbox_round_lock", "outbox_round_events"]);
    } finally {
      counted.stop();
      await bus.stop();
    }
  });

  it("a paced group starts a round after a quiet spell at once, and delivers what its pace window gathers in one round", async () => {
    const tag = `t${++tagSeq}`;
    const paceMs = 1_000;
    // Woken by notifications only (no fallback poll within the test).
    const bus = newBus(other, 60_000);
    const seen: number[] = [];
    bus.subscribe(`pace-${tag}`, (e) => void (e.type === "test.happened" && e.tag === tag && seen.push(e.n)), { paceMs });
    await bus.start();
    await bus.drain();
    const counted = countRounds(`pace-${tag}`);
    const write = (n: number) => t.ctx.database.db.transaction((tx) => writeOutboxEvents(tx, [happened(tag, n)]));
    try {
      // Quiet for longer than the pace (the drain's round started it): the next event goes at once, well before a pace.
      await new Promise((r) => setTimeout(r, paceMs + 50));
      const started = Date.now();
      await write(1);
      await poll(() => seen).toEqual([1]);
      expect(Date.now() - started).toBeLessThan(paceMs);
      // Five commits inside the window that round opened: one more round, which takes all five.
      for (let n = 2; n <= 6; n++) await write(n);
      await poll(() => seen).toEqual([1, 2, 3, 4, 5, 6]);
      expect(counted.rounds()).toBe(2);
      expect(Date.now() - started).toBeGreaterThanOrEqual(paceMs);
      // A drain (tests, shutdown) does not wait for the pace.
      await write(7);
      await bus.drain();
      expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7]);
    } finally {
      counted.stop();
      await bus.stop();
    }
  });

  it("watchers hear events written in their process at once, and every process hears their commit (none of a rollback)", async () => {
    const writer = newBus(t.ctx.database, 50);
    const listener = newBus(other, 50);
    await writer.start();
    await listener.start();
    const mine: string[] = [];
    const heard: string[] = [];
    // Only this test's events (other buses of the test app may write on the same channel meanwhile).
    const into =
      (list: string[]) =>
      ({ phase, events }: WrittenEvents) => {
        if (events?.some((e) => e.type === "test.happened" && e.companyId > 40 && e.companyId < 44))
          list.push(`${phase}:${events.map((e) => `${e.companyId}/${e.type}`).join(",")}`);
      };
    const stops = [writer.watch(into(mine)), listener.watch(into(heard))];
    try {
      await t.ctx.database.db
        .transaction(async (tx) => {
          await writer.record(tx, { ...happened("w", 1), companyId: 41 });
          throw new Error("rollback");
        })
        .catch(() => undefined);
      await t.ctx.database.db.transaction(async (tx) => {
        await writer.record(
          tx,
          { ...happened("w", 2), companyId: 42 },
          { ...happened("w", 3), companyId: 42 },
          { ...happened("w", 4), companyId: 43 },
        );
      });
      // Written: each event as it is; committed: each (company, type) once, from the NOTIFY payload.
      expect(mine.slice(0, 2)).toEqual(["written:41/test.happened", "written:42/test.happened,42/test.happened,43/test.happened"]);
      await poll(() => heard).toEqual(["committed:42/test.happened,43/test.happened"]);
      await poll(() => mine.filter((m) => m.startsWith("committed:"))).toEqual(["committed:42/test.happened,43/test.happened"]);
    } finally {
      for (const stop of stops) stop();
      await writer.stop();
      await listener.stop();
    }
  });
});
