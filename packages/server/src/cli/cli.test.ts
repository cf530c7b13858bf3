import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { openDatabaseForCommand } from "../db/client";
import { startEmbeddedPostgres } from "../db/embedded";
import { withDatabase } from "../test/globalSetup";
import { users } from "../db/schema";
import { buildCompany, buildUser, connectSocket, login } from "../test/factories";
import { createTestApp, type TestApp } from "../test/testApp";
import { runCli, type CliIo } from "./index";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const secrets = { JWT_SECRET: randomBytes(32).toString("hex"), JWT_REFRESH_SECRET: randomBytes(32).toString("hex") };

/** Runs one command line in-process on the test database; returns the exit code and what it printed. */
async function cli(argv: string[], env: Record<string, string> = {}, ownDatabase = false) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    env: { NODE_ENV: "test", DATA_DIR: t.config.dataDir, ...secrets, ...env },
    // The test database stays open for the other tests: the command's close() is a no-op here.
    openDatabase: ownDatabase
      ? (config) => openDatabaseForCommand({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
      : async () => ({ ...t.ctx.database, close: async () => undefined }),
    cwd: t.config.dataDir,
  };
  const code = await runCli(argv, io);
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("balcao (operator commands)", () => {
  it("prints the command list and each command's help; unknown commands and options are usage errors (2)", async () => {
    const list = await cli(["--help"]);
    expect(list.code).toBe(0);
    for (const name of ["migrate", "create-super-user", "reset-password", "backup", "restore", "doctor"]) {
      expect(list.out).toContain(name);
      const help = await cli([name, "--help"]);
      expect(help.code).toBe(0);
      expect(help.out).toContain(`Usage: balcao ${name}`);
    }
    expect((await cli([])).code).toBe(2);
    const unknown = await cli(["frobnicate"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('Unknown command "frobnicate"');
    const badOption = await cli(["migrate", "--force"]);
    expect(badOption.code).toBe(2);
    expect(badOption.err).toContain("--force");
  });

  it("migrate: reports an up-to-date database", async () => {
    const r = await cli(["migrate"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/up to date \(\d+ migrations, latest \d{4}_/);
  });

  it("migrate and doctor on an empty database (DATABASE_URL): doctor warns of pending migrations, migrate applies them all", async () => {
    const url = inject("postgresUrl")!;
    const name = `balcao_cli_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    try {
      const env = { DATABASE_URL: withDatabase(url, name) };
      const before = await cli(["doctor"], env, true);
      expect(before.code).toBe(0);
      expect(before.out).toMatch(/warn {4}migrations: \d+ pending \(0000_initial, /);
      const r = await cli(["migrate"], env, true);
      expect(r.err).toBe("");
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/^Applied \d+ migrations in [\d.]+ s: 0000_initial, /);
      expect((await cli(["migrate"], env, true)).out).toContain("up to date");
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });

  it("create-super-user: the new super user logs in; a taken email or a bad argument is refused", async () => {
    expect((await cli(["create-super-user"])).code).toBe(2);
    const short = await cli(["create-super-user", "--email", "ops@example.com", "--password", "short"]);
    expect(short.code).toBe(2);
    expect(short.err).toContain("at least 8 characters");

    const r = await cli(["create-super-user", "--email", "Ops@Example.com", "--name", "Ops"], { BALCAO_PASSWORD: "operator-pass-1" });
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain("Super user ops@example.com created.");
    expect(r.out).not.toContain("operator-pass-1");
    const session = await login(t.app, "ops@example.com", "operator-pass-1");
    const [row] = await t.ctx.database.db
      .select({ super: users.super, profile: users.profile, name: users.name })
      .from(users)
      .where(eq(users.id, session.userId));
    expect(row).toEqual({ super: true, profile: "admin", name: "Ops" });

    const generated = await cli(["create-super-user", "--email", "ops2@example.com"]);
    expect(generated.code).toBe(0);
    const password = /Password: (\S+)/.exec(generated.out)?.[1];
    expect(password).toBeTruthy();
    const second = await login(t.app, "ops2@example.com", password!);
    expect(second.companyId).toBe(session.companyId);

    const taken = await cli(["create-super-user", "--email", "ops@example.com"]);
    expect(taken.code).toBe(1);
    expect(taken.err).toContain("already exists");
  });

  it("reset-password: the old password stops working, the new one works, open sessions are signed out", async () => {
    const company = await buildCompany(t.ctx);
    const user = await buildUser(t.ctx, company.id, { profile: "user" });
    const before = await login(t.app, user.email);

    const r = await cli(["reset-password", "--email", user.email.toUpperCase(), "--password", "brand-new-pass"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain("1 session signed out");
    await expect(login(t.app, user.email)).rejects.toThrow(/401/);
    await login(t.app, user.email, "brand-new-pass");
    const refresh = await t.app.inject({ method: "POST", url: "/api/auth/refresh_token", headers: { cookie: before.cookie } });
    expect(refresh.statusCode).toBe(401);

    const missing = await cli(["reset-password", "--email", "nobody@example.com"]);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("there is no user with the email nobody@example.com");
  });

  it("reset-password closes the user's live sockets at once: the running server hears it through the outbox", async () => {
    const company = await buildCompany(t.ctx);
    const user = await buildUser(t.ctx, company.id, { profile: "user" });
    const session = await login(t.app, user.email);
    const socket = await connectSocket(t.app, session.token);
    // Well before the server's periodic session sweep (SOCKET_SESSION_CHECK_MS, 30 s), which closed it before.
    const closed = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("socket still connected 5 s after the reset")), 5_000);
      socket.once("disconnect", (reason) => {
        clearTimeout(timer);
        resolve(reason);
      });
    });
    expect((await cli(["reset-password", "--email", user.email, "--password", "brand-new-pass"])).code).toBe(0);
    expect(await closed).toBe("io server disconnect");
  });

  it("doctor: no problems on a healthy install; a bad configuration is a problem with exit code 1", async () => {
    const ok = await cli(["doctor"]);
    expect(ok.err).toBe("");
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/ok {6}database: .* answers \(PostgreSQL \d+/);
    expect(ok.out).toMatch(/ok {6}migrations: up to date/);
    expect(ok.out).toMatch(/ok {6}disk: \d+ MB free/);
    expect(ok.out).toContain("No problems");

    const bad = await cli(["doctor"], { NODE_ENV: "production", JWT_SECRET: "changeme" });
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/PROBLEM configuration: .*JWT_SECRET/);
    expect(bad.out).toContain("1 problem");

    const noDir = await cli(["doctor"], { DATA_DIR: path.join(t.config.dataDir, "missing", "deeper") });
    expect(noDir.code).toBe(1);
    expect(noDir.err).toContain("PROBLEM data directory");
  });

  it("doctor: lists the connections that are not connected", async () => {
    const company = await buildCompany(t.ctx);
    await t.ctx.database.pool.query("INSERT INTO connections (company_id, name, status) VALUES ($1, 'Vendas', 'DISCONNECTED')", [company.id]);
    const r = await cli(["doctor"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(new RegExp(`warn {4}connections: connection \\d+ "Vendas" \\(company ${company.id}, simulator\\) is DISCONNECTED`));
  });

  it("backup / restore with DATABASE_URL: a missing pg_dump is a clear error; restore asks for --yes", async () => {
    const url = inject("postgresUrl")!;
    const r = await cli(["backup", "out.dump"], { DATABASE_URL: url, PG_DUMP: "/nonexistent/pg_dump" });
    expect(r.code).toBe(1);
    expect(r.err).toContain("/nonexistent/pg_dump was not found");
    const restore = await cli(["restore", "out.dump"], { DATABASE_URL: url });
    expect(restore.code).toBe(2);
    expect(restore.err).toContain("add --yes");
    const missing = await cli(["restore", "nothing.dump", "--yes"], { DATABASE_URL: url });
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("does not exist");
  });
});

describe("balcao backup / restore (embedded database)", () => {
  it("a backup restored over later changes brings the data back to the backup's state; the replaced data is kept", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "balcao-cli-backup-"));
    const backupDir = path.join(dataDir + "-copy");
    const query = async (sql: string) => {
      const server = await startEmbeddedPostgres({ dir: path.join(dataDir, "postgres"), fsync: false, log: () => undefined });
      const client = new pg.Client(server.connection());
      await client.connect();
      try {
        return (await client.query<{ n: number }>(sql)).rows;
      } finally {
        await client.end();
        await server.stop();
      }
    };
    const io = () => ({ NODE_ENV: "test", DATA_DIR: dataDir, ...secrets });
    try {
      await query("CREATE TABLE probe (n int); INSERT INTO probe VALUES (1)");
      const backup = await cli(["backup", backupDir], io());
      expect(backup.err).toBe("");
      expect(backup.code).toBe(0);
      expect(existsSync(path.join(backupDir, "postgres", "backup_label"))).toBe(true);

      await query("INSERT INTO probe VALUES (2)");
      const restored = await cli(["restore", backupDir, "--yes"], io());
      expect(restored.err).toBe("");
      expect(restored.code).toBe(0);
      expect(await query("SELECT n FROM probe ORDER BY n")).toEqual([{ n: 1 }]);
      const kept = readdirSync(dataDir).filter((name) => name.startsWith("postgres.before-restore-"));
      expect(kept).toHaveLength(1);

      const notBackup = await cli(["restore", dataDir, "--yes"], io());
      expect(notBackup.code).toBe(1);
      expect(notBackup.err).toContain("is not a backup made by `balcao backup`");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(backupDir, { recursive: true, force: true });
    }
  }, 120_000);
});
