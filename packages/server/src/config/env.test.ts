import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./env";

const strong = "k".repeat(20) + "Zq8-3mP0vL2xN7wR4tY6";

describe("loadConfig", () => {
  it("refuses to start in production without strong, distinct JWT secrets", () => {
    expect(() => loadConfig({ NODE_ENV: "production" })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: "production", JWT_SECRET: "mysecret", JWT_REFRESH_SECRET: strong })).toThrow(/too weak/);
    expect(() => loadConfig({ NODE_ENV: "production", JWT_SECRET: "short", JWT_REFRESH_SECRET: strong })).toThrow(/too weak/);
    expect(() => loadConfig({ NODE_ENV: "production", JWT_SECRET: strong, JWT_REFRESH_SECRET: strong })).toThrow(/differ/);
    const ok = loadConfig({ NODE_ENV: "production", JWT_SECRET: strong, JWT_REFRESH_SECRET: strong + "x" });
    expect(ok.jwtSecret).toBe(strong);
    expect(ok.generatedAdmin).toBeUndefined();
  });

  it("generates secrets once in embedded mode and keeps them in DATA_DIR", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "balcao-cfg-"));
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(second.jwtSecret).toBe(first.jwtSecret);
    expect(first.jwtRefreshSecret).not.toBe(first.jwtSecret);
    expect(existsSync(path.join(dir, "secrets.json"))).toBe(true);
    expect(first.generatedAdmin?.email).toBe("admin@balcao.local");
    expect(JSON.parse(readFileSync(path.join(dir, "secrets.json"), "utf8")).adminPassword).toBe(first.adminPassword);
  });

  it("honours PORT, DATABASE_URL, ADMIN_EMAIL/ADMIN_PASSWORD and rejects nonsense", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "balcao-cfg-"));
    const c = loadConfig({
      DATA_DIR: dir,
      PORT: "9090",
      DATABASE_URL: "postgres://x@localhost/db",
      ADMIN_EMAIL: "root@acme.dev",
      ADMIN_PASSWORD: "long-enough",
    });
    expect(c).toMatchObject({
      port: 9090,
      databaseUrl: "postgres://x@localhost/db",
      adminEmail: "root@acme.dev",
      adminPassword: "long-enough",
      generatedAdmin: undefined,
    });
    expect(loadConfig({ DATA_DIR: dir }).port).toBe(8080);
    expect(() => loadConfig({ DATA_DIR: dir, PORT: "abc" })).toThrow(ConfigError);
  });
});
