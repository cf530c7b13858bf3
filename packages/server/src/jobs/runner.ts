/**
 * The durable job runner every domain uses for work that runs later or elsewhere (scheduled messages,
 * campaign shipping, invoices, timed queue transfers, webhook deliveries).
 *
 * Underneath is pg-boss (PostgreSQL's `FOR UPDATE SKIP LOCKED` queue, retries with exponential backoff, a
 * failed state that keeps the last error, singleton keys, graceful stop). Domains never import pg-boss: they
 * see `register`, `enqueue`, `cancel` and `every` below, so the engine can change without touching them.
 * The contract (docs/decisions.md, "Outbox and job runner"):
 * - a job is a row; it runs at or after `runAt` on exactly one process at a time;
 * - a handler that throws is retried with exponential backoff up to `retryLimit`, then the job is left
 *   failed ("dead") with its last error;
 * - a `key` makes scheduling idempotent: while a job with that key is waiting, enqueueing it again is a no-op;
 * - delivery is at least once (a process killed mid-job re-runs it after `expireInSeconds`): handlers make
 *   their effect idempotent themselves (a guarded UPDATE … WHERE sent_at IS NULL, a unique index);
 * - `enqueue(…, { tx })` writes the job in the caller's transaction: no job for a rolled-back change, no
 *   change without its job.
 */
import { sql, type SQL } from "drizzle-orm";
import PgBoss from "pg-boss";
import type { Logger } from "pino";
import type { Database, DbOrTx } from "../db/client";

export interface Job<P> {
  id: string;
  name: string;
  payload: P;
  /** 0 on the first run, then 1, 2… on retries. */
  attempt: number;
}

export type JobHandler<P> = (job: Job<P>) => Promise<void>;

export interface JobDefinitionOptions {
  /** Retries after the first failure (default 5). */
  retryLimit?: number;
  /** Seconds before the first retry; doubled each time (default 2). */
  retryDelaySec?: number;
  /** A run taking longer is considered lost and retried (default 5 minutes). */
  expireInSeconds?: number;
  /** Jobs of this name run at most this many at a time per process (default 1). */
  concurrency?: number;
}

export interface EnqueueOptions {
  runAt?: Date;
  /** Idempotency key: at most one waiting job per (name, key). */
  key?: string;
  /** Write the job in this transaction (the change that causes it). */
  tx?: DbOrTx;
}

export interface JobRunnerOptions {
  /** How often the process looks for due jobs, in seconds (pg-boss minimum 0.5). */
  pollSeconds: number;
}

/**
 * How often a worker polls its queue on its own, in seconds: only a fallback. The process's due-jobs probe
 * (`JobRunner.probe`, every `pollSeconds`) wakes the workers of the queues that have due jobs, a worker that
 * ran a job looks again at once, and a job sent by this process wakes its queue's workers. Before, every
 * worker (one per job name and concurrency slot, ~20) polled every `pollSeconds`: ~20 statements a second from
 * an idle process, ~9% of the server suite's statements (issue 26).
 */
const WORKER_FALLBACK_POLL_SECONDS = 60;

interface Definition {
  handler: JobHandler<unknown>;
  options: JobDefinitionOptions;
}

const SCHEMA = "pgboss";

export class JobRunner {
  private boss?: PgBoss;
  private readonly definitions = new Map<string, Definition>();
  private readonly recurring = new Map<string, string>();
  /** Queue creation per name, awaited before the first send (pg-boss drops jobs of unknown queues). */
  private readonly queues = new Map<string, Promise<void>>();
  /** Creating queues one at a time: concurrent partition DDL on pg-boss's job table deadlocks. */
  private creating: Promise<unknown> = Promise.resolve();
  private starting?: Promise<void>;
  private stopped = false;
  /** The pg-boss worker ids of each job name, woken when the name has due jobs. */
  private readonly workers = new Map<string, string[]>();
  private probeTimer?: NodeJS.Timeout;

  constructor(
    private readonly database: Database,
    private readonly log: Logger,
    private readonly options: JobRunnerOptions,
  ) {}

  /** Declares what a job name does. Call before `start` (a module's start hook) or any time after. */
  register<P>(name: string, handler: JobHandler<P>, options: JobDefinitionOptions = {}): void {
    if (this.definitions.has(name)) throw new Error(`job ${name} is registered twice`);
    this.definitions.set(name, { handler: handler as JobHandler<unknown>, options });
    if (this.boss) void this.startWorker(name).catch((err) => this.log.error({ err, job: name }, "job worker failed to start"));
  }

  /** A job run once per period across all processes (cron syntax, in UTC, e.g. "0 * * * *" = hourly). */
  every(name: string, cron: string, handler: JobHandler<Record<string, never>>, options: JobDefinitionOptions = {}): void {
    this.register(name, handler, options);
    this.recurring.set(name, cron);
    if (this.boss) void this.boss.schedule(name, cron, {}, { tz: "UTC" });
  }

  /** Queues a job; returns its id, or null when a job with the same key is already waiting. */
  async enqueue<P extends object>(name: string, payload: P, options: EnqueueOptions = {}): Promise<string | null> {
    const boss = await this.ready();
    const definition = this.definitions.get(name);
    await this.queue(boss, name);
    const send: PgBoss.SendOptions = {
      ...(options.runAt && { startAfter: options.runAt }),
      // Every queue is 'stately' (one waiting job per key); jobs without a key get a unique one.
      singletonKey: options.key ?? crypto.randomUUID(),
      ...(options.tx && { db: executorFor(options.tx) }),
      ...(definition && retryOptions(definition.options)),
    };
    const id = await boss.send(name, payload, send);
    // A job due now, committed by this call, is run at once rather than at the next probe.
    if (id && !options.tx && (!options.runAt || options.runAt.getTime() <= Date.now())) this.wake(name);
    return id;
  }

  /** Cancels the waiting job of that name and key, if any (a schedule edited or deleted). */
  async cancel(name: string, key: string): Promise<boolean> {
    const boss = await this.ready();
    const { rows } = await this.database.pool!.query<{ id: string }>(
      `SELECT id FROM ${SCHEMA}.job WHERE name = $1 AND singleton_key = $2 AND state IN ('created', 'retry')`,
      [name, key],
    );
    if (rows.length === 0) return false;
    await boss.cancel(
      name,
      rows.map((r) => r.id),
    );
    return true;
  }

  /** Jobs waiting or running, by name (metrics, health, tests). */
  async backlog(): Promise<Record<string, number>> {
    await this.ready();
    const { rows } = await this.database.pool!.query<{ name: string; count: string }>(
      `SELECT name, count(*) AS count FROM ${SCHEMA}.job WHERE state IN ('created', 'retry', 'active') GROUP BY name`,
    );
    return Object.fromEntries(rows.map((r) => [r.name, Number(r.count)]));
  }

  /** The failed ("dead") jobs of a name with their last error, newest first. */
  async dead(name: string): Promise<{ id: string; payload: unknown; error: unknown }[]> {
    await this.ready();
    const { rows } = await this.database.pool!.query<{ id: string; data: unknown; output: unknown }>(
      `SELECT id, data, output FROM ${SCHEMA}.job WHERE name = $1 AND state = 'failed' ORDER BY completed_on DESC LIMIT 100`,
      [name],
    );
    return rows.map((r) => ({ id: r.id, payload: r.data, error: r.output }));
  }

  /** Installs or upgrades the queue tables (under an advisory lock) and starts the workers. */
  start(): Promise<void> {
    this.starting ??= this.boot();
    return this.starting;
  }

  /** Stops polling, lets running jobs finish (up to `timeoutMs`); unfinished ones are retried elsewhere. */
  async stop(timeoutMs = 10_000): Promise<void> {
    this.stopped = true;
    clearInterval(this.probeTimer);
    if (!this.starting) return;
    await this.starting.catch(() => undefined);
    const boss = this.boss;
    if (!boss) return;
    await new Promise<void>((resolve) => {
      boss.once("stopped", () => resolve());
      boss.stop({ graceful: true, close: false, wait: false, timeout: timeoutMs }).catch(() => resolve());
    });
    this.boss = undefined;
  }

  private queue(boss: PgBoss, name: string): Promise<void> {
    let ready = this.queues.get(name);
    if (!ready) {
      const create = () => ensureQueue(boss, name, this.definitions.get(name)?.options ?? {});
      ready = this.creating.then(create, create);
      this.creating = ready.catch(() => undefined);
      this.queues.set(name, ready);
      ready.catch(() => this.queues.delete(name));
    }
    return ready;
  }

  private async ready(): Promise<PgBoss> {
    await this.start();
    if (!this.boss) throw new Error("job runner is stopped");
    return this.boss;
  }

  private async boot(): Promise<void> {
    const pool = this.database.pool;
    if (!pool) throw new Error("the job runner needs a PostgreSQL connection pool");
    const boss = new PgBoss({
      db: {
        // pg-boss records a job's completion or failure without awaiting it: a job that ends after stop() gave up
        // waiting would reject on a closed pool, unhandled. Once stopping, such a write is dropped (logged); the
        // job stays active and is retried by a running node after it expires. No result at all is what pg-boss's
        // completion calls read as "nothing affected" (an empty row list would make them read rows[0].count).
        executeSql: async (text, values): Promise<{ rows: unknown[] }> => {
          try {
            return await pool.query(text, values);
          } catch (err) {
            if (!this.stopped) throw err;
            this.log.warn({ err }, "job runner stopping: a late job state write was dropped");
            return undefined as unknown as { rows: unknown[] };
          }
        },
      },
      schema: SCHEMA,
      supervise: true,
      schedule: true,
      migrate: true,
      // Completed jobs are kept a week for inspection, then deleted by pg-boss's maintenance.
      retentionDays: 7,
      deleteAfterDays: 7,
    });
    boss.on("error", (err) => this.log.error({ err }, "job runner error"));
    await boss.start();
    if (this.stopped) {
      await boss.stop({ graceful: false, close: false, wait: true });
      return;
    }
    this.boss = boss;
    for (const name of this.definitions.keys()) await this.startWorker(name);
    this.probeTimer = setInterval(() => void this.probe(), this.options.pollSeconds * 1000);
    this.probeTimer.unref();
  }

  /**
   * Wakes the workers of every job name that has due jobs (waiting or to retry, their time come): one statement
   * for all names, on pg-boss's index of waiting jobs by name and start time.
   */
  private async probe(): Promise<void> {
    const names = [...this.workers.keys()];
    if (this.stopped || names.length === 0) return;
    try {
      const { rows } = await this.database.pool!.query<{ name: string }>(
        `SELECT DISTINCT name FROM ${SCHEMA}.job WHERE name = ANY($1::text[]) AND state < 'active' AND start_after < now()`,
        [names],
      );
      for (const { name } of rows) this.wake(name);
    } catch (err) {
      if (!this.stopped) this.log.warn({ err }, "job runner: could not look for due jobs");
    }
  }

  private wake(name: string): void {
    const boss = this.boss;
    if (!boss || this.stopped) return;
    for (const id of this.workers.get(name) ?? []) boss.notifyWorker(id);
  }

  private async startWorker(name: string): Promise<void> {
    const boss = this.boss!;
    const definition = this.definitions.get(name)!;
    await this.queue(boss, name);
    const cron = this.recurring.get(name);
    if (cron) await boss.schedule(name, cron, {}, { tz: "UTC", singletonKey: name });
    const concurrency = Math.max(1, definition.options.concurrency ?? 1);
    const ids: string[] = [];
    this.workers.set(name, ids);
    const pollingIntervalSeconds = Math.max(this.options.pollSeconds, WORKER_FALLBACK_POLL_SECONDS);
    for (let i = 0; i < concurrency; i++) {
      const id: string = await boss.work<object>(name, { pollingIntervalSeconds, batchSize: 1, includeMetadata: true }, async ([job]) => {
        if (!job) return;
        // Once this job ends, the worker fetches again without waiting for its fallback poll: a queue of many
        // jobs is worked through one after the other.
        boss.notifyWorker(id);
        const started = Date.now();
        try {
          await definition.handler({ id: job.id, name, payload: job.data, attempt: job.retryCount });
          this.log.debug({ job: name, id: job.id, ms: Date.now() - started }, "job done");
        } catch (err) {
          this.log.warn({ err, job: name, id: job.id, attempt: job.retryCount }, "job failed");
          throw err;
        }
      });
      ids.push(id);
    }
  }
}

function retryOptions(options: JobDefinitionOptions): Pick<PgBoss.SendOptions, "retryLimit" | "retryDelay" | "retryBackoff" | "expireInSeconds"> {
  return {
    retryLimit: options.retryLimit ?? 5,
    retryDelay: options.retryDelaySec ?? 2,
    retryBackoff: true,
    expireInSeconds: options.expireInSeconds ?? 300,
  };
}

async function ensureQueue(boss: PgBoss, name: string, options: JobDefinitionOptions): Promise<void> {
  const existing = await boss.getQueue(name);
  if (existing) return;
  try {
    await boss.createQueue(name, { name, policy: "stately", ...retryOptions(options) });
  } catch (err) {
    // Two processes creating the same queue at once (a deadlock or a duplicate): the loser finds it there or
    // tries once more.
    if (await boss.getQueue(name)) return;
    await new Promise((r) => setTimeout(r, 100 + Math.random() * 400));
    if (!(await boss.getQueue(name)))
      await boss.createQueue(name, { name, policy: "stately", ...retryOptions(options) }).catch((again) => {
        throw again instanceof Error ? again : err;
      });
  }
}

/**
 * pg-boss speaks `text` with $n placeholders; a drizzle transaction takes SQL objects. Rebuild the statement
 * with the values as bound parameters so the job is written by the caller's transaction.
 */
export function executorFor(q: DbOrTx): PgBoss.Db {
  return {
    executeSql: async (text, values) => {
      const parts = text.split(/\$(\d+)/);
      const chunks: SQL[] = parts.map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${sql.param(values[Number(part) - 1])}`));
      const result = (await q.execute(sql.join(chunks, sql.raw("")))) as unknown as { rows: unknown[] };
      return { rows: result.rows };
    },
  };
}
