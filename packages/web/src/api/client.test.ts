import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch } from "../test/utils";
import { api, ApiError } from "./client";
import { sessionStore } from "./session";

describe("api client", () => {
  let unsubscribe: () => void = () => {};
  afterEach(() => unsubscribe());

  it("sends the bearer token, cookies and JSON body to /api", async () => {
    sessionStore.save("tok-1", { companyId: 1, userId: 2 });
    const { fn, calls } = mockFetch({ "POST /api/users": () => jsonResponse(201, { id: 5 }) });
    await expect(api.post("/users", { name: "Bia" })).resolves.toEqual({ id: 5 });
    expect(calls[0].headers.Authorization).toBe("Bearer tok-1");
    expect(calls[0].body).toEqual({ name: "Bia" });
    expect(fn.mock.calls[0][1]).toMatchObject({ credentials: "include" });
  });

  it("refreshes the token once on 403 ERR_TOKEN_EXPIRED and retries with the new token", async () => {
    sessionStore.save("old", { companyId: 1, userId: 2 });
    let usersCalls = 0;
    const { calls } = mockFetch({
      "GET /api/users/": ({ headers }) => {
        usersCalls += 1;
        return headers.Authorization === "Bearer new"
          ? jsonResponse(200, { users: [], hasMore: false })
          : jsonResponse(403, { error: "ERR_TOKEN_EXPIRED" });
      },
      "POST /api/auth/refresh_token": () => jsonResponse(200, { token: "new", user: {} }),
    });
    await expect(api.get("/users/", { pageNumber: 1 })).resolves.toEqual({ users: [], hasMore: false });
    expect(usersCalls).toBe(2);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      "GET /api/users/?pageNumber=1",
      "POST /api/auth/refresh_token",
      "GET /api/users/?pageNumber=1",
    ]);
    expect(sessionStore.getToken()).toBe("new");
  });

  it("does not refresh a second time when the retry is refused again", async () => {
    sessionStore.save("old", { companyId: 1, userId: 2 });
    const { calls } = mockFetch({
      "GET /api/auth/me": () => jsonResponse(403, { error: "ERR_TOKEN_EXPIRED" }),
      "POST /api/auth/refresh_token": () => jsonResponse(200, { token: "new", user: {} }),
    });
    await expect(api.get("/auth/me")).rejects.toMatchObject({ status: 403, code: "ERR_TOKEN_EXPIRED" });
    expect(calls.filter((c) => c.url.includes("refresh_token"))).toHaveLength(1);
    expect(calls).toHaveLength(3);
  });

  it("does not refresh on 403 ERR_NO_PERMISSION", async () => {
    sessionStore.save("tok", { companyId: 1, userId: 2 });
    const { calls } = mockFetch({ "DELETE /api/users/3": () => jsonResponse(403, { error: "ERR_NO_PERMISSION" }) });
    const err = await api.delete("/users/3").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).body).toEqual({ error: "ERR_NO_PERMISSION" });
    expect(calls).toHaveLength(1);
    expect(sessionStore.getToken()).toBe("tok");
  });

  it("ends the session on 401 and keeps the error body", async () => {
    sessionStore.save("tok", { companyId: 1, userId: 2 });
    const ended = vi.fn();
    unsubscribe = sessionStore.onEnd(ended);
    mockFetch({ "GET /api/settings": () => jsonResponse(401, { error: "ERR_SESSION_EXPIRED" }) });
    await expect(api.get("/settings")).rejects.toMatchObject({ status: 401, body: { error: "ERR_SESSION_EXPIRED" } });
    expect(ended).toHaveBeenCalledWith("unauthorized", { error: "ERR_SESSION_EXPIRED" });
    expect(sessionStore.getToken()).toBeNull();
    expect(localStorage.getItem("companyId")).toBeNull();
    expect(localStorage.getItem("userId")).toBeNull();
  });

  it("ends the session when the refresh itself fails", async () => {
    sessionStore.save("old", { companyId: 1, userId: 2 });
    const ended = vi.fn();
    unsubscribe = sessionStore.onEnd(ended);
    mockFetch({
      "GET /api/settings": () => jsonResponse(403, { error: "ERR_TOKEN_EXPIRED" }),
      "POST /api/auth/refresh_token": () => jsonResponse(401, { error: "ERR_SESSION_EXPIRED" }),
    });
    await expect(api.get("/settings")).rejects.toBeInstanceOf(ApiError);
    expect(ended.mock.calls[0][0]).toBe("unauthorized");
    expect(sessionStore.getToken()).toBeNull();
  });

  it("leaves the session alone on an anonymous 401 (wrong password)", async () => {
    sessionStore.save("tok", { companyId: 1, userId: 2 });
    const ended = vi.fn();
    unsubscribe = sessionStore.onEnd(ended);
    mockFetch({ "POST /api/auth/login": () => jsonResponse(401, { error: "ERR_INVALID_CREDENTIALS" }) });
    await expect(api.post("/auth/login", { email: "a@b.co", password: "x" }, { anonymous: true })).rejects.toMatchObject({
      code: "ERR_INVALID_CREDENTIALS",
    });
    expect(ended).not.toHaveBeenCalled();
  });

  it("shares one refresh between concurrent expired calls", async () => {
    sessionStore.save("old", { companyId: 1, userId: 2 });
    let refreshes = 0;
    mockFetch({
      "GET /api/a": ({ headers }) =>
        headers.Authorization === "Bearer new" ? jsonResponse(200, 1) : jsonResponse(403, { error: "ERR_TOKEN_EXPIRED" }),
      "GET /api/b": ({ headers }) =>
        headers.Authorization === "Bearer new" ? jsonResponse(200, 2) : jsonResponse(403, { error: "ERR_TOKEN_EXPIRED" }),
      "POST /api/auth/refresh_token": async () => {
        refreshes += 1;
        await new Promise((r) => setTimeout(r, 10));
        return jsonResponse(200, { token: "new", user: {} });
      },
    });
    await expect(Promise.all([api.get("/a"), api.get("/b")])).resolves.toEqual([1, 2]);
    expect(refreshes).toBe(1);
  });
});
