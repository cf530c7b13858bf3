import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, looksLowEntropy } from "./env";
import { createTestApp } from "../test/testApp";

/** Issue 11: long but guessable JWT secrets passed the production boot check; /api/docs was public there. */

const production = (jwtSecret: string, refresh = randomBytes(36).toString("base64url")) =>
  loadConfig({ NODE_ENV: "production", JWT_SECRET: jwtSecret, JWT_REFRESH_SECRET: refresh, DATA_DIR: "/tmp/balcao-never-written" });

describe("JWT secret entropy in production", () => {
  it.each([
    ["one character", "a".repeat(48)],
    ["a repeated word", "changeme".repeat(6)],
    ["a repeated pair of words", "passwordpasswordpasswordpassword"],
    ["a keyboard run", "abcdefghijklmnopqrstuvwxyz0123456789"],
    ["repeated digits", "0123456789".repeat(4)],
    ["few distinct characters", "abcabcabcabcabcabcabcabcabcabcabcabcxy"],
  ])("refuses %s", (_name, secret) => {
    expect(looksLowEntropy(secret)).toBe(true);
    expect(() => production(secret)).toThrow(ConfigError);
    expect(() => production(secret)).toThrow(/too weak/);
  });

  it("accepts what `openssl rand` produces, even at the minimum length", () => {
    for (let i = 0; i < 200; i++) {
      for (const secret of [randomBytes(16).toString("hex"), randomBytes(32).toString("base64"), randomBytes(36).toString("base64url")]) {
        expect(looksLowEntropy(secret), secret).toBe(false);
      }
    }
    expect(production(randomBytes(16).toString("hex")).env).toBe("production");
    // Drawn by `randomBytes(16)` in a CI run: 9 distinct characters, 99 bits; refused while 10 were required.
    expect(looksLowEntropy("47fd6f6c61747c817f68d43cf7884f3d")).toBe(false);
  });

  it("checks JWT_REFRESH_SECRET the same way", () => {
    expect(() => production(randomBytes(32).toString("hex"), "x".repeat(40))).toThrow(/JWT_REFRESH_SECRET is too weak/);
  });
});

describe("/api/docs", () => {
  const secrets = () => ({ JWT_SECRET: randomBytes(32).toString("hex"), JWT_REFRESH_SECRET: randomBytes(32).toString("hex") });

  it("is not served in production unless API_DOCS=true; it is in development", async () => {
    for (const [env, expected] of [
      [{ NODE_ENV: "production", ...secrets() }, 404],
      [{ NODE_ENV: "production", API_DOCS: "true", ...secrets() }, 200],
      [{ NODE_ENV: "development", ...secrets() }, 200],
      [{ NODE_ENV: "development", API_DOCS: "false", ...secrets() }, 404],
    ] as const) {
      const t = await createTestApp(env);
      try {
        const res = await t.app.inject({ method: "GET", url: "/api/docs/json" });
        expect(res.statusCode, JSON.stringify({ ...env, JWT_SECRET: undefined, JWT_REFRESH_SECRET: undefined })).toBe(expected);
        if (expected === 200) expect(res.json().openapi).toMatch(/^3\./);
      } finally {
        await t.close();
      }
    }
  });
});
