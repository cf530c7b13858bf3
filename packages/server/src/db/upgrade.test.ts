import { randomBytes } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import argon2 from "argon2";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { buildApp, type App } from "../app";
import { runCli, type CliIo } from "../cli/index";
import { loadConfig, type Config } from "../config/env";
import { createContext } from "../context";
import { startServer } from "../server";
import { withDatabase } from "../test/globalSetup";
import { MIGRATIONS_FOLDER, openDatabase, openDatabaseForCommand, type Database } from "./client";
import { journalEntries, SchemaTooNewError, type JournalEntry } from "./schemaVersion";

/**
 * Issue 23 (upgrades): migrations are forward-only and every released one is applied to a database that already
 * holds data. A fresh database is brought up one migration at a time (through drizzle's own migrator on a
 * journal cut at that step); after each step the tables that step introduced get representative rows, written
 * with plain SQL as the version of that time would have stored them. The last migration is applied by the
 * server's own `Database.migrate()`; then the seeded data is read back through the HTTP API of the real app on
 * that database (log in as the seeded admin, list tickets, messages and contacts) and written to.
 *
 * A new migration needs an entry in SEEDS (rows for the tables it creates; "[]" with a reason when it creates
 * none): the first test fails until it has one.
 */

type Query = (text: string, values?: unknown[]) => Promise<Record<string, unknown>[]>;
/** Ids of the seeded rows, filled as the steps run. */
type Ids = Record<string, number>;
type Seed = (q: Query, ids: Ids) => Promise<void>;

const PASSWORD = "upgrade-pass-1";
const ADMIN_EMAIL = "admin@upgrade.test";

/** One id from an INSERT … RETURNING id. */
async function id(q: Query, text: string, values: unknown[]): Promise<number> {
  const [row] = await q(`${text} RETURNING id`, values);
  return Number(row!.id);
}

const SEEDS: Record<string, Seed> = {
  "0000_initial": async (q, ids) => {
    ids.plan = await id(q, "INSERT INTO plans (name, users, connections, queues, value) VALUES ('Plano Upgrade', 10, 2, 5, 99.90)", []);
    ids.platform = await id(
      q,
      "INSERT INTO companies (name, email, plan_id, due_date) VALUES ('Plataforma', 'ops@upgrade.test', $1, current_date + 30)",
      [ids.plan],
    );
    ids.company = await id(
      q,
      "INSERT INTO companies (name, email, plan_id, due_date) VALUES ('Loja Upgrade', 'loja@upgrade.test', $1, current_date + 30)",
      [ids.plan],
    );
    // userCreation was stored but not honoured before 0004, which opens sign-up where the platform had it off.
    await q(
      "INSERT INTO settings (company_id, key, value) VALUES ($1, 'userCreation', 'disabled'), ($2, 'userCreation', 'disabled'), ($2, 'userRating', 'enabled')",
      [ids.platform, ids.company],
    );
    const hash = await argon2.hash(PASSWORD, { type: argon2.argon2id, memoryCost: 4096, timeCost: 2 });
    await q("INSERT INTO users (company_id, name, email, password_hash, profile, super) VALUES ($1, 'Ops', 'ops@upgrade.test', $2, 'admin', true)", [
      ids.platform,
      hash,
    ]);
    ids.admin = await id(q, "INSERT INTO users (company_id, name, email, password_hash, profile) VALUES ($1, 'Ana Admin', $2, $3, 'admin')", [
      ids.company,
      ADMIN_EMAIL,
      hash,
    ]);
    ids.queue = await id(q, "INSERT INTO queues (company_id, name, color, greeting_message) VALUES ($1, 'Vendas', '#2E7D32', 'Olá!')", [ids.company]);
    await q("INSERT INTO user_queues (company_id, user_id, queue_id) VALUES ($1, $2, $3)", [ids.company, ids.admin, ids.queue]);
    ids.connection = await id(q, "INSERT INTO connections (company_id, name, is_default, channel) VALUES ($1, 'Loja', true, 'simulator')", [
      ids.company,
    ]);
    await q("INSERT INTO connection_queues (company_id, connection_id, queue_id) VALUES ($1, $2, $3)", [ids.company, ids.connection, ids.queue]);
    ids.contact = await id(
      q,
      "INSERT INTO contacts (company_id, name, number, email) VALUES ($1, 'Carla Cliente', '5511987650001', 'carla@upgrade.test')",
      [ids.company],
    );
    ids.contact2 = await id(q, "INSERT INTO contacts (company_id, name, number) VALUES ($1, 'Davi Cliente', '5511987650002')", [ids.company]);
    await q(
      "INSERT INTO contact_identities (company_id, contact_id, kind, value, source) VALUES ($1, $2, 'phone', '5511987650001', 'upgrade'), ($1, $3, 'phone', '5511987650002', 'upgrade')",
      [ids.company, ids.contact, ids.contact2],
    );
    await q("INSERT INTO contact_extra_info (company_id, contact_id, name, value) VALUES ($1, $2, 'CPF', '000.000.000-00')", [
      ids.company,
      ids.contact,
    ]);
    ids.ticket = await id(
      q,
      `INSERT INTO tickets (company_id, status, user_id, queue_id, connection_id, contact_id, last_message, last_message_at)
       VALUES ($1, 'open', $2, $3, $4, $5, 'Pode sim', now())`,
      [ids.company, ids.admin, ids.queue, ids.connection, ids.contact],
    );
    ids.ticket2 = await id(
      q,
      "INSERT INTO tickets (company_id, status, connection_id, contact_id, last_message) VALUES ($1, 'closed', $2, $3, 'Obrigado')",
      [ids.company, ids.connection, ids.contact2],
    );
    await q(
      `INSERT INTO messages (company_id, ticket_id, contact_id, connection_id, provider_message_id, body, from_me, ack, read, created_at)
       VALUES ($1, $2, $3, $4, 'up-1', 'Vocês entregam no sábado?', false, 0, true, now() - interval '2 minutes'),
              ($1, $2, $3, $4, 'up-2', 'Pode sim', true, 3, true, now() - interval '1 minute'),
              ($1, $5, $6, $4, 'up-3', 'Obrigado', false, 0, true, now() - interval '1 day')`,
      [ids.company, ids.ticket, ids.contact, ids.connection, ids.ticket2, ids.contact2],
    );
    ids.tag = await id(q, "INSERT INTO tags (company_id, name, color) VALUES ($1, 'VIP', '#D32F2F')", [ids.company]);
    await q("INSERT INTO ticket_tags (company_id, ticket_id, tag_id) VALUES ($1, $2, $3)", [ids.company, ids.ticket, ids.tag]);
    await q("INSERT INTO ticket_notes (company_id, note, ticket_id, contact_id, user_id) VALUES ($1, 'Cliente antigo', $2, $3, $4)", [
      ids.company,
      ids.ticket,
      ids.contact,
      ids.admin,
    ]);
    await q("INSERT INTO quick_messages (company_id, shortcode, message, user_id) VALUES ($1, 'oi', 'Olá, tudo bem?', $2)", [ids.company, ids.admin]);
    // Two attendance cycles of one contact: 0006 marks the first as the contact's lead, 0008 sums them per day.
    await q(
      `INSERT INTO attendance_cycles (company_id, ticket_id, connection_id, user_id, queue_id, queued_at, started_at, finished_at, rated, rating, created_at)
       VALUES ($1, $2, $3, $4, $5, now() - interval '3 days', now() - interval '3 days' + interval '5 minutes', now() - interval '3 days' + interval '20 minutes', true, 3, now() - interval '3 days'),
              ($1, $2, $3, $4, $5, now() - interval '1 hour', now() - interval '50 minutes', NULL, false, NULL, now() - interval '1 hour')`,
      [ids.company, ids.ticket, ids.connection, ids.admin, ids.queue],
    );
    // A list with the same number twice: 0010 keeps one (its unique index would not build otherwise).
    ids.list = await id(q, "INSERT INTO contact_lists (company_id, name) VALUES ($1, 'Clientes')", [ids.company]);
    await q(
      `INSERT INTO contact_list_items (company_id, contact_list_id, name, number) VALUES
       ($1, $2, 'Carla', '5511987650001'), ($1, $2, 'Carla de novo', '5511987650001'), ($1, $2, 'Davi', '5511987650002')`,
      [ids.company, ids.list],
    );
    ids.campaign = await id(
      q,
      "INSERT INTO campaigns (company_id, name, message1, status, connection_id, contact_list_id) VALUES ($1, 'Promo', 'Oi {nome}', 'FINALIZADA', $2, $3)",
      [ids.company, ids.connection, ids.list],
    );
    await q(
      "INSERT INTO campaign_shippings (company_id, campaign_id, number, message, status, idempotency_key, delivered_at) VALUES ($1, $2, '5511987650001', 'Oi Carla', 'delivered', 'camp-up-1', now())",
      [ids.company, ids.campaign],
    );
    await q("INSERT INTO campaign_settings (company_id, key, value) VALUES ($1, 'messageInterval', '20')", [ids.company]);
    ids.announcement = await id(q, "INSERT INTO announcements (company_id, title, text, priority) VALUES ($1, 'Manutenção', 'Domingo às 3h', 1)", [
      ids.platform,
    ]);
    ids.invoice = await id(
      q,
      "INSERT INTO invoices (company_id, detail, value, due_date, plan_id) VALUES ($1, 'Plano Upgrade', 99.90, current_date + 30, $2)",
      [ids.company, ids.plan],
    );
  },
  "0001_channel_auth_keys_and_lease_commands": async (q, ids) => {
    await q(`INSERT INTO connection_auth_keys (connection_id, company_id, type, key_id, value) VALUES ($1, $2, 'pre-key', '1', '{"k":"v"}')`, [
      ids.connection,
      ids.company,
    ]);
  },
  // Columns only (attendance_cycles): the rows of 0000 get their defaults (checked below).
  "0002_chatbot_rating_and_out_of_hours": async () => undefined,
  // Indexes only.
  "0003_search_indexes": async () => undefined,
  "0004_platform_admin": async (q, ids) => {
    await q("INSERT INTO announcement_reads (company_id, user_id, announcement_id) VALUES ($1, $2, $3)", [ids.company, ids.admin, ids.announcement]);
  },
  "0005_billing": async (q, ids) => {
    await q(
      "INSERT INTO pix_charges (txid, company_id, invoice_id, provider, amount, br_code) VALUES ('txupgrade0001', $1, $2, 'fake', 99.90, '000201…')",
      [ids.company, ids.invoice],
    );
    await q(
      "INSERT INTO invoice_payments (company_id, invoice_id, method, txid, end_to_end_id, amount, paid_at, applied) VALUES ($1, $2, 'pix', 'txupgrade0001', 'E2EUP1', 99.90, now(), true)",
      [ids.company, ids.invoice],
    );
  },
  // A column backfilled from existing cycles (checked below).
  "0006_attendance_dashboard": async () => undefined,
  // The outbox is a delivery queue of the running app: a fabricated event would be acted on by its consumers.
  "0007_outbox": async () => undefined,
  // attendance_daily is built by the migration from the cycles (checked below).
  "0008_attendance_daily": async () => undefined,
  "0009_send_api_idempotency": async (q, ids) => {
    await q(
      `INSERT INTO api_idempotency_keys (company_id, connection_id, token_hash, key, status_code, response) VALUES ($1, $2, $3, 'k-1', 200, '{"ok":true}')`,
      [ids.company, ids.connection, "a".repeat(64)],
    );
  },
  "0010_contact_list_imports": async (q, ids) => {
    await q(
      "INSERT INTO contact_list_imports (company_id, contact_list_id, user_id, file_name, format, status, total_rows, processed_rows, inserted, finished_at) VALUES ($1, $2, $3, 'clientes.csv', 'csv', 'done', 2, 2, 2, now())",
      [ids.company, ids.list, ids.admin],
    );
  },
  // Columns only (campaigns, campaign_shippings): the rows of 0000 get their defaults.
  "0011_campaign_dispatch": async () => undefined,
  "0012_outgoing_webhooks": async (q, ids) => {
    // Inactive: nothing of this test is sent to it.
    const webhook = await id(
      q,
      `INSERT INTO webhooks (company_id, url, events, secret, active) VALUES ($1, 'https://example.invalid/hook', '["ticket.created"]', 's3cret', false)`,
      [ids.company],
    );
    await q(
      `INSERT INTO webhook_deliveries (company_id, webhook_id, source_event_id, event, subject_id, payload, status, attempts, last_status_code, delivered_at)
       VALUES ($1, $2, 'ev-1', 'ticket.created', $3, '{}', 'delivered', 1, 200, now())`,
      [ids.company, webhook, ids.ticket],
    );
  },
  // A column only (users.language): NULL for the existing users.
  "0013_user_language": async () => undefined,
  "0014_connection_health": async (q, ids) => {
    await q(
      "INSERT INTO connection_events (company_id, connection_id, status, reason, detail) VALUES ($1, $2, 'DISCONNECTED', 'loggedOut', 'upgrade')",
      [ids.company, ids.connection],
    );
  },
  // An index only (contacts.number trigrams): the contacts seeded at 0000 are indexed by the migration.
  "0015_contact_number_search": async () => undefined,
  "0016_message_reactions_and_edits": async (q, ids) => {
    const [m] = await q("SELECT id FROM messages WHERE company_id = $1 ORDER BY id LIMIT 1", [ids.company]);
    await q("INSERT INTO message_reactions (company_id, message_id, sender, emoji) VALUES ($1, $2, '5511987650001', '👍')", [ids.company, m!.id]);
    await q("INSERT INTO message_edits (company_id, message_id, previous_body) VALUES ($1, $2, 'Antes')", [ids.company, m!.id]);
  },
  // An index only (messages.data_json->>'queued', the replies waiting for their connection): no new table.
  "0017_send_queue_index": async () => undefined,
};

const entries = journalEntries();

/** A migrations folder holding this build's first `count` migrations (the journal cut there). */
function folderUpTo(root: string, count: number): string {
  const dir = path.join(root, `upto-${count}`);
  mkdirSync(path.join(dir, "meta"), { recursive: true });
  const kept = entries.slice(0, count);
  for (const entry of kept) copyFileSync(path.join(MIGRATIONS_FOLDER, `${entry.tag}.sql`), path.join(dir, `${entry.tag}.sql`));
  writeFileSync(path.join(dir, "meta", "_journal.json"), JSON.stringify({ version: "7", dialect: "postgresql", entries: kept.map(full) }));
  return dir;
}
const full = (e: JournalEntry) => ({ ...e, version: "7", breakpoints: true });

let admin: pg.Client;
let client: pg.Client;
let database: Database;
let app: App;
let name: string;
let url: string;
let config: Config;
let scratch: string;
const ids: Ids = {};
/** "<tag>: <rows in drizzle's table>" after each step: one more migration applied each time. */
const applied: string[] = [];
const step = async (tag: string) => {
  const { rows } = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations");
  applied.push(`${tag}: ${rows[0]!.n}`);
};

beforeAll(async () => {
  const server = inject("postgresUrl")!;
  // Named like the harness's per-file databases (test/testApp.ts); dropped in afterAll.
  name = `balcao_t_${process.pid}_up${randomBytes(3).toString("hex")}`;
  admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  url = withDatabase(server, name);
  scratch = mkdtempSync(path.join(os.tmpdir(), "balcao-upgrade-"));
  client = new pg.Client({ connectionString: url });
  await client.connect();
  const q: Query = async (text, values) => (await client.query(text, values)).rows;

  // Every migration but the last, one at a time, each followed by the rows of the tables it introduced.
  for (let i = 0; i < entries.length - 1; i++) {
    await migrate(drizzle(client), { migrationsFolder: folderUpTo(scratch, i + 1) });
    await step(entries[i]!.tag);
    await SEEDS[entries[i]!.tag]?.(q, ids);
  }
  // The rest through the server's own path (lock, newer-schema check, stamp).
  database = await openDatabase({ databaseUrl: url });
  await database.migrate();
  const last = entries[entries.length - 1]!;
  await step(last.tag);
  await SEEDS[last.tag]?.(q, ids);

  const dataDir = mkdtempSync(path.join(os.tmpdir(), "balcao-upgrade-app-"));
  config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString("hex"),
    JWT_REFRESH_SECRET: randomBytes(32).toString("hex"),
    WEB_DIST: path.join(dataDir, "no-web"),
  });
  app = await buildApp(createContext(config, database));
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await database?.close();
  await client?.end();
  await admin?.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin?.end();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  if (config) rmSync(config.dataDir, { recursive: true, force: true });
});

const rows = async (text: string, values: unknown[] = []) => (await client.query(text, values)).rows as Record<string, unknown>[];

describe("upgrading a database with data from 0000_initial to the latest schema", () => {
  it("every migration of the journal has its seed step, and each was applied in turn", () => {
    const missing = entries.map((e) => e.tag).filter((tag) => !(tag in SEEDS));
    expect(missing, "add the rows of the tables these migrations introduce to SEEDS in db/upgrade.test.ts").toEqual([]);
    expect(applied).toEqual(entries.map((e, i) => `${e.tag}: ${i + 1}`));
  });

  it("the seeded rows are all there, and the data migrations did their part on them", async () => {
    const counts = await rows(`SELECT
      (SELECT count(*) FROM companies)::int AS companies, (SELECT count(*) FROM users)::int AS users,
      (SELECT count(*) FROM contacts)::int AS contacts, (SELECT count(*) FROM tickets)::int AS tickets,
      (SELECT count(*) FROM messages)::int AS messages, (SELECT count(*) FROM connection_auth_keys)::int AS auth_keys,
      (SELECT count(*) FROM announcement_reads)::int AS reads, (SELECT count(*) FROM invoice_payments)::int AS payments,
      (SELECT count(*) FROM api_idempotency_keys)::int AS idempotency, (SELECT count(*) FROM contact_list_imports)::int AS imports,
      (SELECT count(*) FROM webhook_deliveries)::int AS deliveries, (SELECT count(*) FROM drizzle.__drizzle_migrations)::int AS migrations`);
    expect(counts[0]).toEqual({
      companies: 2,
      users: 2,
      contacts: 2,
      tickets: 2,
      messages: 3,
      auth_keys: 1,
      reads: 1,
      payments: 1,
      idempotency: 1,
      imports: 1,
      deliveries: 1,
      migrations: entries.length,
    });
    // 0002: new columns with their defaults on existing cycles; 0006: the contact's first cycle is its lead.
    expect(await rows("SELECT rating_attempts, first_of_contact FROM attendance_cycles ORDER BY created_at")).toEqual([
      { rating_attempts: 0, first_of_contact: true },
      { rating_attempts: 0, first_of_contact: false },
    ]);
    // 0008: the per-day sums were rebuilt from the cycles that existed.
    expect(
      await rows(
        "SELECT sum(finished)::int AS finished, sum(started)::int AS started, sum(leads)::int AS leads, sum(rating_sum)::int AS rating FROM attendance_daily",
      ),
    ).toEqual([{ finished: 1, started: 2, leads: 1, rating: 3 }]);
    // 0004: sign-up stays open where the platform company had the old default; other companies untouched.
    expect(await rows("SELECT company_id, value FROM settings WHERE key = 'userCreation' ORDER BY company_id")).toEqual([
      { company_id: ids.platform, value: "enabled" },
      { company_id: ids.company, value: "disabled" },
    ]);
    // 0005: the invoice got its recurrence; 0010: the duplicate list number was dropped, one of each kept.
    expect(await rows("SELECT recurrence FROM invoices")).toEqual([{ recurrence: "MENSAL" }]);
    expect(await rows("SELECT name, number FROM contact_list_items ORDER BY id")).toEqual([
      { name: "Carla", number: "5511987650001" },
      { name: "Davi", number: "5511987650002" },
    ]);
    // 0011 and 0013: columns added with defaults on existing rows.
    expect(await rows("SELECT send_count, pause_reason FROM campaigns")).toEqual([{ send_count: 0, pause_reason: null }]);
    expect(await rows("SELECT language FROM users WHERE id = $1", [ids.admin])).toEqual([{ language: null }]);
  });

  it("the migrated data is usable through the HTTP API: log in, list tickets, messages and contacts, write", async () => {
    const login = await app.inject({ method: "POST", url: "/api/auth/login", payload: { email: ADMIN_EMAIL, password: PASSWORD } });
    expect(login.statusCode, login.body).toBe(200);
    const { token, user } = login.json() as { token: string; user: { id: number; companyId: number } };
    expect(user).toMatchObject({ id: ids.admin, companyId: ids.company });
    const headers = { authorization: `Bearer ${token}` };

    const open = await app.inject({ url: "/api/tickets?status=open&showAll=true", headers });
    expect(open.statusCode, open.body).toBe(200);
    const tickets = (open.json() as { tickets: { id: number; contact: { name: string }; lastMessage: string; tags?: { name: string }[] }[] }).tickets;
    expect(tickets.map((t) => [t.id, t.contact.name, t.lastMessage])).toEqual([[ids.ticket, "Carla Cliente", "Pode sim"]]);

    const messages = await app.inject({ url: `/api/messages/${ids.ticket}`, headers });
    expect(messages.statusCode, messages.body).toBe(200);
    const listed = (messages.json() as { messages: { body: string; fromMe: boolean }[] }).messages;
    expect(listed.map((m) => [m.body, m.fromMe])).toEqual([
      ["Vocês entregam no sábado?", false],
      ["Pode sim", true],
    ]);

    const contacts = await app.inject({ url: "/api/contacts", headers });
    expect(contacts.statusCode, contacts.body).toBe(200);
    const names = (contacts.json() as { contacts: { name: string }[] }).contacts.map((c) => c.name).sort();
    expect(names).toEqual(["Carla Cliente", "Davi Cliente"]);

    // Writes work on the migrated tables (sequences, constraints, triggers): a new contact and a tag.
    const created = await app.inject({ method: "POST", url: "/api/contacts", headers, payload: { name: "Eva Nova", number: "5511987650003" } });
    expect(created.statusCode, created.body).toBe(201);
    expect((created.json() as { id: number }).id).toBeGreaterThan(ids.contact2!);
    const tag = await app.inject({ method: "POST", url: "/api/tags", headers, payload: { name: "Novo", color: "#1976D2" } });
    expect(tag.statusCode, tag.body).toBe(201);
  });
});

describe("a database migrated by a newer version is refused, not run on", () => {
  const newest = entries[entries.length - 1]!;
  const stamp = { app: "balcao", version: "9.1.0", schema: "9999_from_the_future" };

  /** The operator command in-process on this file's database (its own connection, as from a shell). */
  async function cli(argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = {
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      env: {
        NODE_ENV: "test",
        DATA_DIR: config.dataDir,
        JWT_SECRET: config.jwtSecret,
        JWT_REFRESH_SECRET: config.jwtRefreshSecret,
        DATABASE_URL: url,
      },
      openDatabase: (c) => openDatabaseForCommand({ databaseUrl: c.databaseUrl, dataDir: c.dataDir }),
      cwd: config.dataDir,
    };
    const code = await runCli(argv, io);
    return { code, out: out.join("\n"), err: err.join("\n") };
  }

  it("migrating stamps the schema with this build's version and newest migration", async () => {
    const [row] = await rows("SELECT obj_description('drizzle.__drizzle_migrations'::regclass, 'pg_class') AS comment");
    expect(JSON.parse(String(row!.comment))).toMatchObject({ app: "balcao", schema: newest.tag, version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect((await cli(["migrate"])).out).toContain(`latest ${newest.tag}`);
  });

  it("server start, `balcao migrate` and `balcao doctor` refuse it, naming the version it needs; nothing is changed", async () => {
    // What a newer Balcão leaves behind: a migration this build does not carry, and its stamp.
    await client.query("INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ('from-the-future', $1)", [newest.when + 60_000]);
    await client.query(`COMMENT ON TABLE drizzle.__drizzle_migrations IS '${JSON.stringify(stamp)}'`);
    const before = await rows("SELECT id, hash, created_at FROM drizzle.__drizzle_migrations ORDER BY id");

    const expected = `The database has 1 migration newer than this Balcão`;
    const refused = await database.migrate().then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(SchemaTooNewError);
    expect((refused as Error).message).toContain(expected);
    expect((refused as Error).message).toContain(
      `(its newest is ${newest.tag}). It was migrated by Balcão 9.1.0 (schema 9999_from_the_future): run Balcão 9.1.0 or newer`,
    );

    await expect(startServer({ ...config, databaseUrl: url, port: 0, host: "127.0.0.1" })).rejects.toThrow(
      /newer than this Balcão .* run Balcão 9\.1\.0 or newer/,
    );

    const migrate = await cli(["migrate"]);
    expect(migrate.code).toBe(1);
    expect(migrate.err).toContain(`migrate failed: ${expected}`);
    expect(migrate.err).toContain("run Balcão 9.1.0 or newer");
    expect(migrate.err).not.toContain("    at "); // a message, not a stack

    const doctor = await cli(["doctor"]);
    expect(doctor.code).toBe(1);
    expect(doctor.err).toMatch(/^PROBLEM +migrations: The database has 1 migration newer .*run Balcão 9\.1\.0 or newer/);

    // The stamp of the newer version is kept (an older start writes nothing).
    expect(await rows("SELECT id, hash, created_at FROM drizzle.__drizzle_migrations ORDER BY id")).toEqual(before);
    const [comment] = await rows("SELECT obj_description('drizzle.__drizzle_migrations'::regclass, 'pg_class') AS comment");
    expect(JSON.parse(String(comment!.comment))).toEqual(stamp);
  });

  it("without the newer version's stamp it still refuses, and says so in general terms", async () => {
    await client.query("COMMENT ON TABLE drizzle.__drizzle_migrations IS NULL");
    await expect(database.migrate()).rejects.toThrow(
      /^The database has 1 migration newer than this Balcão \S+ knows \(its newest is \d{4}_\w+\)\. Run the newer Balcão version that migrated it, or restore a backup taken before that upgrade/,
    );
    expect(await rows("SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations")).toEqual([{ n: entries.length + 1 }]);
  });
});
