import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant } from "../test/factories";
import { createTestApp, type TestApp } from "../test/testApp";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe("security headers (helmet)", () => {
  it("sends helmet's headers with the app's CSP on every answer: public, signed in, refused", async () => {
    const tenant = await buildTenant(t.app);
    const answers = [
      await t.app.inject({ method: "GET", url: "/api/health" }),
      await t.app.inject({ method: "GET", url: "/api/tags/", headers: { authorization: `Bearer ${tenant.adminSession.token}` } }),
      await t.app.inject({ method: "GET", url: "/api/tags/" }),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 401]);
    for (const answer of answers) {
      const headers = Object.fromEntries(
        Object.entries(answer.headers).filter(([name]) =>
          /^(content-security-policy|cross-origin-|origin-agent|referrer-policy|strict-transport|x-content-type|x-dns|x-download|x-frame|x-permitted|x-xss|x-powered)/.test(
            name,
          ),
        ),
      );
      expect(headers).toEqual({
        "content-security-policy":
          "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';" +
          "img-src 'self' data: blob:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' 'unsafe-inline';" +
          "media-src 'self' blob:;connect-src 'self' ws: wss:;frame-src https://www.youtube.com https://www.youtube-nocookie.com",
        "cross-origin-opener-policy": "same-origin",
        "cross-origin-resource-policy": "same-origin",
        "origin-agent-cluster": "?1",
        "referrer-policy": "no-referrer",
        "strict-transport-security": "max-age=31536000; includeSubDomains",
        "x-content-type-options": "nosniff",
        "x-dns-prefetch-control": "off",
        "x-download-options": "noopen",
        "x-frame-options": "SAMEORIGIN",
        "x-permitted-cross-domain-policies": "none",
        "x-xss-protection": "0",
      });
    }
  });
});
