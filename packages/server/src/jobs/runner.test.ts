import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/testApp";
import type { Job } from "./runner";

/** Polls until `check` returns a value (jobs run on the runner's own loop). */
async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("job runner", () => {
  let t: TestApp;
  const seen: Job<{ n: number }>[] = [];
  const flaky: number[] = [];
  beforeAll(async () => {
    t = await createTestApp({ JOBS_POLL_SECONDS: "0.5" });
    t.ctx.jobs.register<{ n: number }>("test.record", async (job) => {
      seen.push(job);
    });
    t.ctx.jobs.register<{ n: number }>(
      "test.flaky",
      async (job) => {
        flaky.push(job.attempt);
        if (job.attempt < 2) throw new Error(`boom ${job.attempt}`);
      },
      { retryLimit: 3, retryDelaySec: 1 },
    );
    t.ctx.jobs.register<{ n: number }>(
      "test.dead",
      async () => {
        throw new Error("always fails");
      },
      { retryLimit: 1, retryDelaySec: 1 },
    );
  });
  afterAll(async () => {
    await t.close();
  });

  it("runs an enqueued job with its payload", async () => {
    const id = await t.ctx.jobs.enqueue("test.record", { n: 1 });
    expect(id).toEqual(expect.any(String));
    const job = await eventually(() => seen.find((j) => j.payload.n === 1));
    expect(job).toMatchObject({ id, name: "test.record", attempt: 0 });
  });

  it("does not run a job before its time", async () => {
    const runAt = new Date(Date.now() + 2_000);
    await t.ctx.jobs.enqueue("test.record", { n: 2 }, { runAt });
    await new Promise((r) => setTimeout(r, 1_000));
    expect(seen.find((j) => j.payload.n === 2)).toBeUndefined();
    await eventually(() => seen.find((j) => j.payload.n === 2));
    expect(Date.now()).toBeGreaterThanOrEqual(runAt.getTime());
  });

  it("keeps one waiting job per key and cancels it by key", async () => {
    const runAt = new Date(Date.now() + 60_000);
    const first = await t.ctx.jobs.enqueue("test.record", { n: 3 }, { runAt, key: "k3" });
    const second = await t.ctx.jobs.enqueue("test.record", { n: 3 }, { runAt, key: "k3" });
    expect(first).toEqual(expect.any(String));
    expect(second).toBeNull();
    expect(await t.ctx.jobs.cancel("test.record", "k3")).toBe(true);
    expect(await t.ctx.jobs.cancel("test.record", "k3")).toBe(false);
    // Once cancelled, the key is free again.
    expect(await t.ctx.jobs.enqueue("test.record", { n: 3 }, { runAt, key: "k3" })).toEqual(expect.any(String));
    await t.ctx.jobs.cancel("test.record", "k3");
  });

  it("retries a failing job with backoff until it succeeds", async () => {
    await t.ctx.jobs.enqueue("test.flaky", { n: 4 });
    await eventually(() => (flaky.length >= 3 ? true : undefined), 20_000);
    expect(flaky.slice(0, 3)).toEqual([0, 1, 2]);
  }, 30_000);

  it("leaves a job that keeps failing dead with its last error", async () => {
    const id = await t.ctx.jobs.enqueue("test.dead", { n: 5 });
    const dead = await eventually(async () => (await t.ctx.jobs.dead("test.dead")).find((d) => d.id === id), 20_000);
    expect(JSON.stringify(dead.error)).toContain("always fails");
  }, 30_000);

  it("writes a job in the caller's transaction: none for a rolled-back change", async () => {
    const db = t.ctx.database.db;
    await db
      .transaction(async (tx) => {
        await t.ctx.jobs.enqueue("test.record", { n: 6 }, { tx, key: "k6" });
        throw new Error("rollback");
      })
      .catch(() => undefined);
    await db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await t.ctx.jobs.enqueue("test.record", { n: 7 }, { tx, key: "k7" });
    });
    await eventually(() => seen.find((j) => j.payload.n === 7));
    await new Promise((r) => setTimeout(r, 700));
    expect(seen.find((j) => j.payload.n === 6)).toBeUndefined();
  });
});

describe("job runner waking its workers", () => {
  let t: TestApp;
  const ran: number[] = [];
  beforeAll(async () => {
    // Neither the process's probe nor a worker's fallback poll comes within this test (both at 60 s): whatever
    // runs was woken.
    t = await createTestApp({ JOBS_POLL_SECONDS: "60" });
    t.ctx.jobs.register<{ n: number }>("test.chain", async (job) => {
      ran.push(job.payload.n);
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it("runs a job sent for now at once, then works through the waiting ones one after another", async () => {
    // Written in a transaction: nothing wakes the worker for these (the probe would, at its next turn).
    await t.ctx.database.db.transaction(async (tx) => {
      for (let n = 1; n <= 5; n++) await t.ctx.jobs.enqueue("test.chain", { n }, { tx });
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(ran).toEqual([]);
    await t.ctx.jobs.enqueue("test.chain", { n: 6 });
    await eventually(() => (ran.length === 6 ? true : undefined));
    expect([...ran].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe("job runner stopping", () => {
  it("a job that outlives stop() and the pool does not leave an unhandled rejection behind", async () => {
    const t = await createTestApp({ JOBS_POLL_SECONDS: "0.5" });
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on("unhandledRejection", onRejection);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started = false;
    try {
      t.ctx.jobs.register("test.slow", async () => {
        started = true;
        await held;
      });
      await t.ctx.jobs.enqueue("test.slow", {});
      await eventually(() => (started ? true : undefined));
      // stop() gives up waiting for the running job, then the pool ends while the job still runs.
      await t.ctx.jobs.stop(100);
      await t.close();
      release();
      // pg-boss records the job's completion on its own, unawaited: give that write its turn.
      await new Promise((r) => setTimeout(r, 500));
      expect(rejections).toEqual([]);
    } finally {
      release();
      process.off("unhandledRejection", onRejection);
    }
  });
});
