/**
 * Every statement the server code sends during a test file is checked for tenant scoping (db/tenant.ts): one
 * that touches a tenant-owned table without mentioning company_id fails the file, naming the statement and
 * the server function that sent it. Statements sent by test code itself (fixtures, assertions) and the
 * deliberate cross-tenant reads below are not checked.
 */
import pg from "pg";
import { afterAll, expect } from "vitest";
import { unscopedTenantTables } from "../db/tenant";

/**
 * Server functions that read across companies on purpose, each with its reason. A frame of the stack that
 * contains one of these names exempts the statement.
 */
const CROSS_TENANT: Record<string, string> = {
  "BillingService.confirmCharge": "a PSP callback names a charge by txid before any company is known",
  "BillingService.confirmManually": "the platform super user confirms any company's static Pix payment",
  "ScheduleSender.sweep": "the minute sweep of scheduled messages finds late rows of every company, then handles each in its company",
  "IdempotencyStore.purge": "the hourly purge deletes expired send-API idempotency keys of every company",
  cloudApiWebhookTarget: "Meta calls a Cloud API connection's webhook URL by connection id before any company is known",
  "SendQueue.expireAll":
    "the minute expiry of replies queued for their connection finds too-old rows of every company, then fails each in its company",
  "CampaignDispatcher.sweep": "the minute sweep of campaigns finds late and orphaned campaigns of every company, then handles each in its company",
  metricsOutboxBacklog: "the /metrics scrape counts the outbox events not yet handled, over every company (counts only)",
  metricsConnectionsByStatus: "the /metrics scrape counts the connections by channel and status, over every company (counts only)",
};

/** Coordination rows keyed by connection, claimed and renewed across companies by every process. */
const INFRASTRUCTURE_TABLES = new Set(["connection_leases"]);

interface Violation {
  statement: string;
  tables: string[];
  caller: string;
}

const SERVER_FRAME = /packages\/server\/src\/(?!test\/)[^:)]*(?<!\.test)\.ts/;

const textOf = (first: unknown) => (typeof first === "string" ? first : (first as { text?: string } | undefined)?.text);

/**
 * The wrappers go on pg's prototypes once per worker process: vitest runs this file before every test file,
 * and without isolation (vitest.config.ts) the files of a worker share one pg module, so wrapping again
 * would stack one more wrapper per file. Each file's afterAll takes the violations of its own statements.
 */
const INSTALLED = Symbol.for("balcao.test.tenantGuard");
const registry = globalThis as { [INSTALLED]?: Violation[] };
const violations: Violation[] = (registry[INSTALLED] ??= install());

function install(): Violation[] {
  const found: Violation[] = [];
  /**
   * pool.query waits for a free client, then calls client.query from whatever released one: the stack seen
   * there is the releaser's, not the caller's. The caller's stack is kept here per statement text, in order.
   */
  // The caller is kept as an Error, its stack formatted only for a statement that is then checked: formatting
  // (source-mapped by vitest) every statement's stack was ~6% of a test worker's CPU.
  const callerStacks = new Map<string, Error[]>();
  const originalPoolQuery = pg.Pool.prototype.query;
  pg.Pool.prototype.query = function (this: pg.Pool, ...args: unknown[]) {
    const text = textOf(args[0]);
    if (text) {
      const waiting = callerStacks.get(text);
      if (waiting) waiting.push(new Error());
      else callerStacks.set(text, [new Error()]);
    }
    return (originalPoolQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pg.Pool.prototype.query;

  /** The tenant tables a statement touches without company_id, by statement text (the same texts recur). */
  const unscoped = new Map<string, string[]>();
  const unscopedTables = (text: string) => {
    let tables = unscoped.get(text);
    if (!tables) {
      tables = unscopedTenantTables(text).filter((table) => !INFRASTRUCTURE_TABLES.has(table));
      if (unscoped.size < 50_000) unscoped.set(text, tables);
    }
    return tables;
  };

  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const text = textOf(args[0]);
    const pooled = text ? callerStacks.get(text) : undefined;
    const caller = pooled?.shift();
    if (text && pooled?.length === 0) callerStacks.delete(text);
    if (text) {
      const tables = unscopedTables(text);
      if (tables.length > 0) {
        const frames = (caller ?? new Error()).stack!.split("\n").slice(2);
        const server = frames.filter((f) => SERVER_FRAME.test(f) && !/\/db\/(client|embedded|resilience)\.ts/.test(f));
        const exempt = frames.some((f) => Object.keys(CROSS_TENANT).some((name) => f.includes(name)));
        if (server.length > 0 && !exempt) found.push({ statement: text.replace(/\s+/g, " ").slice(0, 300), tables, caller: server[0]!.trim() });
      }
    }
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pg.Client.prototype.query;
  return found;
}

afterAll(() => {
  const found = violations.splice(0);
  expect(found, "statements on tenant tables without company_id (see db/tenant.ts)").toEqual([]);
});
