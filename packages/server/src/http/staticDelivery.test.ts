import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTag, buildTenant } from "../test/factories";
import { createTestApp, type TestApp } from "../test/testApp";
import { COMPRESS_THRESHOLD_BYTES } from "./staticDelivery";

// A built web app as `vite build` leaves it: index.html and content-hashed assets with their .br and .gz.
const script = `export const app = ${JSON.stringify("balcão ".repeat(600))};\n`;
const webDist = mkdtempSync(path.join(os.tmpdir(), "balcao-webdist-"));
mkdirSync(path.join(webDist, "assets"));
writeFileSync(path.join(webDist, "index.html"), '<!doctype html><script type="module" src="/assets/index-Abc123.js"></script>');
writeFileSync(path.join(webDist, "assets/index-Abc123.js"), script);
writeFileSync(path.join(webDist, "assets/index-Abc123.js.br"), brotliCompressSync(script));
writeFileSync(path.join(webDist, "assets/index-Abc123.js.gz"), gzipSync(script));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ WEB_DIST: webDist });
});
afterAll(async () => {
  await t.close();
  rmSync(webDist, { recursive: true, force: true });
});

describe("static delivery of the web app (issue 20)", () => {
  it("sends a hashed asset's precompressed brotli or gzip file, cached for a year as immutable", async () => {
    for (const [accept, encoding, decode] of [
      ["gzip, deflate, br", "br", brotliDecompressSync],
      ["gzip", "gzip", gunzipSync],
    ] as const) {
      const res = await t.app.inject({ method: "GET", url: "/assets/index-Abc123.js", headers: { "accept-encoding": accept } });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-encoding"]).toBe(encoding);
      expect(res.headers["content-type"]).toMatch(/javascript/);
      expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.rawPayload.length).toBeLessThan(script.length / 10);
      expect(decode(res.rawPayload).toString()).toBe(script);
    }
  });

  it("sends the plain asset to a client that accepts no compression", async () => {
    const res = await t.app.inject({ method: "GET", url: "/assets/index-Abc123.js", headers: { "accept-encoding": "identity" } });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.body).toBe(script);
  });

  it("has index.html revalidated on every load, served directly or as the fallback of an app route", async () => {
    for (const url of ["/index.html", "/tickets/42", "/"]) {
      const res = await t.app.inject({ method: "GET", url, headers: { "accept-encoding": "br" } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"], url).toMatch(/^text\/html/);
      expect(res.headers["cache-control"], url).toBe("no-cache");
    }
  });
});

describe("compression of API answers (issue 20)", () => {
  it("compresses a JSON answer above the threshold and leaves a small one alone", async () => {
    const tenant = await buildTenant(t.app);
    for (let i = 0; i < 40; i++) await buildTag(t.ctx, tenant.company.id, { name: `Etiqueta de teste número ${i} ${"x".repeat(20)}` });
    const headers = { ...tenant.adminSession.headers, "accept-encoding": "br, gzip" };

    const large = await t.app.inject({ method: "GET", url: "/api/tags/list", headers });
    expect(large.statusCode).toBe(200);
    expect(large.headers["content-encoding"]).toBe("br");
    expect(large.headers["content-type"]).toMatch(/^application\/json/);
    const json = brotliDecompressSync(large.rawPayload).toString();
    expect(json.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);
    expect(JSON.parse(json)).toHaveLength(40);

    const gzip = await t.app.inject({ method: "GET", url: "/api/tags/list", headers: { ...headers, "accept-encoding": "gzip" } });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toHaveLength(40);

    const plain = await t.app.inject({ method: "GET", url: "/api/tags/list", headers: tenant.adminSession.headers });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.json()).toHaveLength(40);

    const small = await t.app.inject({ method: "GET", url: "/api/health", headers: { "accept-encoding": "br, gzip" } });
    expect(small.statusCode).toBe(200);
    expect(small.body.length).toBeLessThan(COMPRESS_THRESHOLD_BYTES);
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.json()).toBeTruthy();
  });
});
