import { test } from "@playwright/test";
import { expectNoViolations } from "./support/axe";
import { logIn, SUPER } from "./support/world";

/**
 * Issue 16 item 8, the super user's pages (accessibility.spec.ts has the public and company pages). Apart
 * from the other specs because signing in as the super user ends that user's other sessions: the specs that
 * do it run one at a time (playwright.config.ts).
 */
test.use({ viewport: { width: 1366, height: 800 }, reducedMotion: "reduce" });

test("the super user's pages have no WCAG A/AA violation", async ({ page }) => {
  test.setTimeout(120_000);
  await logIn(page, SUPER);
  for (const path of ["/announcements", "/settings"]) await expectNoViolations(page, path);
});
