import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** The rules every page is checked against (issue 16 item 8): WCAG 2.0/2.1, levels A and AA. */
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/** A failing node as a person can find it: its selector, its text, and for contrast the colours and ratio axe measured. */
function describe(node: { target: unknown[]; html: string; any: { data?: unknown }[] }): string {
  const data = node.any[0]?.data as { fgColor?: string; bgColor?: string; contrastRatio?: number } | undefined;
  const colours = data?.fgColor ? ` ${data.fgColor} on ${data.bgColor} = ${data.contrastRatio}` : "";
  return `${node.target.join(" ")} ${node.html.slice(0, 120)}${colours}`;
}

/** Waits until the page has settled (no request in flight, no spinner), then runs axe and lists what it found. */
export async function expectNoViolations(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState("networkidle");
  // Spinners (indeterminate progress bars) gone: the page shows its data.
  await expect(page.locator('[role="progressbar"]:not([aria-valuenow])')).toHaveCount(0);
  const result = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const found = result.violations.map((v) => `${v.id} (${v.nodes.length}): ${v.nodes.map(describe).join(" | ")}`);
  expect.soft(found, `axe violations on ${path}`).toEqual([]);
}
