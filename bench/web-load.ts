/**
 * web-load (issue 20): how long the web app takes to show, in Chromium with a cold cache on a slow link
 * (1.6 Mbit/s down and up, 150 ms RTT, through CDP Network.emulateNetworkConditions):
 * - login form: from navigation to /login until the password field is visible;
 * - tickets page settled: a signed-in admin (session put in place before the navigation, no login typed)
 *   opens /tickets; until the page's heading is visible and the network has been idle for 500 ms.
 * Each figure is the median of BENCH_WEB_RUNS (3) runs, each in a fresh browser context (empty cache), plus
 * the bytes the browser received. It measures running servers, it starts none:
 *   BENCH_WEB_URL            the server under test (http://127.0.0.1:8080)
 *   BENCH_WEB_BASELINE_URL   optional: a server of the code before (same figures, printed as the baseline)
 *   BENCH_WEB_EMAIL / BENCH_WEB_PASSWORD   an admin of both servers (ADMIN_EMAIL / ADMIN_PASSWORD they booted with)
 * bench/README.md shows how to start both.
 */
import { chromium, type Browser } from "playwright";

const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 3);
const LINK = { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 1_600_000 / 8 };
const EMAIL = process.env.BENCH_WEB_EMAIL ?? process.env.ADMIN_EMAIL ?? "admin@balcao.local";
const PASSWORD = process.env.BENCH_WEB_PASSWORD ?? process.env.ADMIN_PASSWORD ?? "";

interface Load {
  ms: number;
  bytes: number;
  requests: number;
}

async function session(base: string): Promise<{ token: string; cookie: string; companyId: number; userId: number }> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`web-load: login at ${base} failed (${res.status}); set BENCH_WEB_EMAIL and BENCH_WEB_PASSWORD`);
  const body = (await res.json()) as { token: string; user: { id: number; companyId: number } };
  const cookie = /jrt=([^;]+)/.exec(res.headers.get("set-cookie") ?? "")?.[1] ?? "";
  return { token: body.token, cookie, companyId: body.user.companyId, userId: body.user.id };
}

async function load(browser: Browser, base: string, page: "login" | "tickets"): Promise<Load> {
  const context = await browser.newContext({ locale: "pt-BR" });
  if (page === "tickets") {
    const s = await session(base);
    if (s.cookie) await context.addCookies([{ name: "jrt", value: s.cookie, url: base }]);
    await context.addInitScript(
      (values) => {
        for (const [key, value] of Object.entries(values)) localStorage.setItem(key, value);
      },
      { token: s.token, companyId: String(s.companyId), userId: String(s.userId), language: "pt" },
    );
  }
  const tab = await context.newPage();
  const cdp = await context.newCDPSession(tab);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", LINK);
  let bytes = 0;
  let requests = 0;
  cdp.on("Network.loadingFinished", (event: { encodedDataLength: number }) => {
    bytes += event.encodedDataLength;
    requests++;
  });
  const started = performance.now();
  if (page === "login") {
    await tab.goto(`${base}/login`, { waitUntil: "commit" });
    await tab.locator('input[type="password"]').waitFor({ state: "visible", timeout: 120_000 });
  } else {
    await tab.goto(`${base}/tickets`, { waitUntil: "networkidle", timeout: 120_000 });
    await tab.getByRole("heading", { name: "Atendimentos" }).first().waitFor({ state: "visible", timeout: 120_000 });
    await tab.waitForLoadState("networkidle");
  }
  const ms = performance.now() - started;
  await context.close();
  return { ms, bytes, requests };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function figures(browser: Browser, base: string): Promise<Record<"login" | "tickets", Load>> {
  const out = {} as Record<"login" | "tickets", Load>;
  for (const page of ["login", "tickets"] as const) {
    const runs: Load[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await load(browser, base, page));
    out[page] = { ms: median(runs.map((r) => r.ms)), bytes: median(runs.map((r) => r.bytes)), requests: median(runs.map((r) => r.requests)) };
  }
  return out;
}

function line(label: string, load: Load, baseline?: Load): string {
  const text = `${label.padEnd(44)} ${(load.ms / 1000).toFixed(2).padStart(6)} s  ${(load.bytes / 1024).toFixed(0).padStart(6)} KB received  ${String(load.requests).padStart(4)} requests`;
  return baseline ? `${text}   ×${(load.ms / baseline.ms).toFixed(2)} of the baseline's time` : text;
}

export async function webLoadBench(): Promise<void> {
  const base = (process.env.BENCH_WEB_URL ?? "http://127.0.0.1:8080").replace(/\/$/, "");
  const baselineUrl = process.env.BENCH_WEB_BASELINE_URL?.replace(/\/$/, "");
  const browser = await chromium.launch({
    executablePath: process.env.BENCH_CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
  try {
    console.log(`Chromium, cold cache, 1.6 Mbit/s, 150 ms RTT; median of ${RUNS} runs`);
    const baseline = baselineUrl ? await figures(browser, baselineUrl) : undefined;
    const current = await figures(browser, base);
    if (baseline) {
      console.log(line(`baseline: login form (${baselineUrl})`, baseline.login));
      console.log(line("baseline: tickets page settled", baseline.tickets));
    }
    console.log(line(`login form (${base})`, current.login, baseline?.login));
    console.log(line("tickets page settled", current.tickets, baseline?.tickets));
  } finally {
    await browser.close();
  }
}
