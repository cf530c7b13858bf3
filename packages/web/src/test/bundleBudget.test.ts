import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BUDGETS, buildForProduction, routeWeights } from "./bundleBudget";

// The production build's sizes are deterministic: a budget is a test, not a timing (issue 20).
describe("production build weight", () => {
  // `npm test` hands over the production build it made for the browser tests (scripts/test-all.mjs), with its
  // manifest; otherwise this test builds one of its own.
  const given = process.env.BUNDLE_BUDGET_DIST;
  const outDir = given ?? mkdtempSync(path.join(tmpdir(), "balcao-web-budget-"));
  afterAll(() => {
    if (!given) rmSync(outDir, { recursive: true, force: true });
  });

  it("keeps the gzipped JavaScript of the login and tickets pages within their budgets", () => {
    if (!given) buildForProduction(outDir);
    const weights = routeWeights(outDir);
    expect(weights.map((weight) => weight.route)).toEqual(["login", "tickets"]);
    for (const weight of weights) {
      // The login page must not download the tickets page, the layout, nor the app it shows before (the app's
      // chunk, the router, i18next, the session's providers, MUI's theme, the app's texts), nor the chunks that
      // gather the app's, the layout's and the UI's modules (vite.config.ts, shellChunks).
      if (weight.route === "login") {
        const app = /\/(TicketsPage|AppLayout|fullApp|app|layout|ui|react-router|i18n|SessionProvider|theme|bundle\.pt)-/;
        expect(weight.files.filter((file) => app.test(file))).toEqual([]);
      }
      expect({ route: weight.route, gzipKB: Math.round(weight.gzipBytes / 1024) }).toEqual({
        route: weight.route,
        gzipKB: expect.toSatisfy((kb: number) => kb * 1024 <= BUDGETS[weight.route]),
      });
    }
  }, 240_000);
});
