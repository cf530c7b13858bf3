/**
 * Access tokens (modules/auth/tokens.ts): a token's signature is verified once per process, its expiry on every
 * call, so a remembered token still expires on time and a forged one is never remembered.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ACCESS_TOKEN_TTL_SECONDS } from "@balcao/shared";
import { TokenService } from "./tokens";

const claims = { id: 7, companyId: 3, profile: "admin", sid: "s-1", super: false };

afterEach(() => {
  vi.useRealTimers();
});

describe("TokenService.verifyAccess", () => {
  it("answers the same claims for a token checked before, and 401 for a token signed with another secret", async () => {
    const tokens = new TokenService("a".repeat(32), "r".repeat(32));
    const token = await tokens.signAccess(claims);
    const first = await tokens.verifyAccess(token);
    expect(first).toMatchObject(claims);
    expect(await tokens.verifyAccess(token)).toEqual(first);
    const forged = await new TokenService("b".repeat(32), "r".repeat(32)).signAccess({ ...claims, super: true });
    await expect(tokens.verifyAccess(forged)).rejects.toMatchObject({ code: "ERR_SESSION_EXPIRED", status: 401 });
    // Refused again, not remembered.
    await expect(tokens.verifyAccess(forged)).rejects.toMatchObject({ code: "ERR_SESSION_EXPIRED", status: 401 });
    const tampered = token.slice(0, -2) + (token.endsWith("AA") ? "BB" : "AA");
    await expect(tokens.verifyAccess(tampered)).rejects.toMatchObject({ status: 401 });
  });

  it("a remembered token expires on time: 403 ERR_TOKEN_EXPIRED once its exp is reached, like one never seen", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-24T12:00:00Z"));
    const tokens = new TokenService("a".repeat(32), "r".repeat(32));
    const remembered = await tokens.signAccess(claims);
    const unseen = await tokens.signAccess({ ...claims, sid: "s-2" });
    const { exp } = await tokens.verifyAccess(remembered);
    expect(exp).toBe(Math.floor(Date.now() / 1000) + ACCESS_TOKEN_TTL_SECONDS);
    vi.setSystemTime((exp - 1) * 1000);
    await expect(tokens.verifyAccess(remembered)).resolves.toMatchObject(claims);
    vi.setSystemTime(exp * 1000);
    await expect(tokens.verifyAccess(remembered)).rejects.toMatchObject({ code: "ERR_TOKEN_EXPIRED", status: 403 });
    await expect(tokens.verifyAccess(unseen)).rejects.toMatchObject({ code: "ERR_TOKEN_EXPIRED", status: 403 });
  });

  it("remembers a bounded number of tokens", async () => {
    const tokens = new TokenService("a".repeat(32), "r".repeat(32));
    for (let i = 0; i < 2100; i++) await tokens.verifyAccess(await tokens.signAccess({ ...claims, sid: `s-${i}` }));
    expect((tokens as unknown as { verified: Map<string, unknown> }).verified.size).toBe(2000);
  });
});
