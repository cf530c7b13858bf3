import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/testApp";
import { buildTenant } from "../test/factories";
import { pipelines } from "../modules/messages/module";
import { routeLabel } from "./metrics";

const TOKEN = "metrics-token-0123456789abcdef";

function sample(body: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of body.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = /\{(.*)\}/.exec(line)?.[1] ?? "";
    if (Object.entries(labels).every(([key, value]) => labelText.includes(`${key}="${value}"`))) return Number(line.split(" ").at(-1));
  }
  return undefined;
}

describe("GET /metrics with METRICS_TOKEN (issue 20)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: TOKEN });
  });
  afterAll(() => t.close());

  it("asks for the token", async () => {
    expect((await t.app.inject({ method: "GET", url: "/metrics" })).statusCode).toBe(401);
    const wrong = await t.app.inject({ method: "GET", url: "/metrics", headers: { authorization: `Bearer ${TOKEN.replace("0", "1")}` } });
    expect(wrong.statusCode).toBe(401);
  });

  it("exposes HTTP durations by route pattern, the inbound pipeline, backlogs, sockets and connections", async () => {
    const tenant = await buildTenant(t.app);
    // Two different ids, one route pattern.
    for (const id of [987654, 987655]) await t.app.inject({ method: "GET", url: `/api/tickets/${id}`, headers: tenant.adminSession.headers });
    await t.app.inject({ method: "GET", url: "/no/such/page/123" });
    // One inbound event through the pipeline (an ack of an unknown message changes nothing).
    await pipelines.get(t.ctx)!.handle({ companyId: tenant.company.id, connectionId: 999_999 }, { type: "ack", providerMessageId: "none", ack: 2 });

    const res = await t.app.inject({ method: "GET", url: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    const body = res.body;
    expect(sample(body, "balcao_http_request_duration_seconds_count", { method: "GET", route: "/api/tickets/:id" })).toBe(2);
    expect(body).not.toContain("987654");
    expect(body).not.toContain("/no/such/page");
    expect(sample(body, "balcao_http_request_duration_seconds_count", { route: "unmatched" })).toBeGreaterThanOrEqual(1);
    expect(sample(body, "balcao_inbound_pipeline_duration_seconds_count", { event: "ack" })).toBe(1);
    expect(body).toMatch(/^# TYPE balcao_outbox_backlog gauge$/m);
    expect(body).toMatch(/^# TYPE balcao_jobs_backlog gauge$/m);
    expect(sample(body, "balcao_sockets_connected")).toBe(0);
    expect(body).toMatch(/^# TYPE balcao_connections gauge$/m);
    expect(body).toMatch(/^balcao_process_cpu_seconds_total /m);
  });

  it("counts the connections by channel and status", async () => {
    const tenant = await buildTenant(t.app);
    const created = await t.app.inject({
      method: "POST",
      url: "/api/whatsapp",
      headers: tenant.adminSession.headers,
      payload: { name: "Metrics", channel: "simulator" },
    });
    expect(created.statusCode).toBeLessThan(300);
    const res = await t.app.inject({ method: "GET", url: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } });
    expect(sample(res.body, "balcao_connections", { channel: "simulator" })).toBeGreaterThanOrEqual(1);
  });
});

describe("GET /metrics without METRICS_TOKEN", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("does not exist, even with a bearer token", async () => {
    const res = await t.app.inject({ method: "GET", url: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain("balcao_");
  });
});

describe("routeLabel", () => {
  it("keeps the route pattern and folds the per-file asset routes", () => {
    expect(routeLabel("/api/tickets/:ticketId")).toBe("/api/tickets/:ticketId");
    expect(routeLabel("/assets/index-Abc123.js")).toBe("/assets/*");
    expect(routeLabel(undefined)).toBe("unmatched");
  });
});
