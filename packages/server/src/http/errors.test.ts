import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { AppError, registerErrorHandling } from "./errors";

describe("AppError", () => {
  it("takes its status from the catalogue unless a route overrides it", () => {
    expect(new AppError("ERR_NO_PERMISSION").status).toBe(403);
    expect(new AppError("ERR_SUBSCRIPTION_EXPIRED").status).toBe(402);
    expect(new AppError("ERR_ACCESS_DENIED", 400).status).toBe(400);
  });

  it("accepts only catalogue codes", () => {
    // @ts-expect-error a code outside packages/shared/src/errors.ts must not compile
    const err = new AppError("ERR_NOT_IN_THE_CATALOGUE");
    expect(err.status).toBe(500);
  });

  it("answers with the spec's wire text where the spec names a text", async () => {
    const app = Fastify();
    registerErrorHandling(app);
    app.get("/denied", async () => {
      throw new AppError("ERR_ACCESS_DENIED");
    });
    app.get("/limit", async () => {
      throw new AppError("ERR_USER_LIMIT_REACHED", undefined, { limit: 3 });
    });
    const denied = await app.inject({ method: "GET", url: "/denied" });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ error: "Acesso não permitido" });
    const limit = await app.inject({ method: "GET", url: "/limit" });
    expect(limit.statusCode).toBe(400);
    expect(limit.json()).toEqual({ error: "ERR_USER_LIMIT_REACHED", meta: { limit: 3 } });
    await app.close();
  });
});
