import ExcelJS from "exceljs";
import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";

/** Someone who signs in: a company owner, an attendant or the platform super user. */
export interface Person {
  email: string;
  password: string;
}

/** A company's first admin, as the sign-up form sends it (the company takes the owner's name). */
export interface Owner extends Person {
  name: string;
}

/** Seeded by the e2e web server's environment (playwright.config.ts). */
export const SUPER: Person = { email: "super@balcao.test", password: "Sup3r-Secret!" };

/**
 * A suffix that keeps this run's companies, users and names apart from earlier runs on the same database.
 * A function, not a constant: every spec file of a worker shares this module, and two specs with the same
 * e-mail pattern must not collide.
 */
export function newStamp(): string {
  return Date.now().toString(36);
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/**
 * `largest` (the plan with the most users) leaves room for the attendants a scenario creates; `first` is the
 * plan whose price the billing scenarios assert.
 */
export type PlanChoice = "first" | "largest";

/** Signs the company up through the public form's call and returns its id. */
export async function signUpCompany(request: APIRequestContext, owner: Owner, plan: PlanChoice = "largest"): Promise<number> {
  const plans = (await (await request.get("/api/plans/list")).json()) as { id: number; users: number }[];
  const chosen = plan === "first" ? plans[0]! : plans.reduce((a, b) => (b.users > a.users ? b : a));
  const signup = await request.post("/api/companies/cadastro", { data: { ...owner, phone: "", planId: chosen.id } });
  expect(signup.status(), await signup.text()).toBe(201);
  return ((await signup.json()) as { companyId: number }).companyId;
}

/**
 * An API session token. A later browser login of the same user ends this session, so specs prepare
 * everything through the API before they sign in on a page.
 */
export async function apiToken(request: APIRequestContext, who: Person): Promise<string> {
  const res = await request.post("/api/auth/login", { data: { email: who.email, password: who.password } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

/** Signs the company up and opens an API session for its owner. */
export async function signUpAndLogIn(request: APIRequestContext, owner: Owner, plan: PlanChoice = "largest"): Promise<string> {
  await signUpCompany(request, owner, plan);
  return apiToken(request, owner);
}

/** POST with the session; a failed call fails the test with the server's answer, not later with a puzzling page. */
export async function post(request: APIRequestContext, token: string, path: string, data: unknown) {
  const res = await request.post(path, { headers: bearer(token), data });
  expect(res.ok(), `${path}: ${await res.text()}`).toBeTruthy();
  return res.json();
}

/** Polls `read` every 250 ms until `done` or the timeout, then hands back the last value for the caller to assert on. */
export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Waits until a customer's first message has opened a pending ticket for the company and returns its id
 * (`showAll`: every queue's, as an admin's "all tickets" view lists them).
 */
export async function pendingTicketId(request: APIRequestContext, token: string, options: { showAll?: boolean } = {}): Promise<number> {
  const query = options.showAll ? "status=pending&showAll=true" : "status=pending";
  const pending = await waitFor(
    async () => ((await (await request.get(`/api/tickets?${query}`, { headers: bearer(token) })).json()) as { tickets: { id: number }[] }).tickets,
    (tickets) => tickets.length > 0,
  );
  expect(pending.length, "a pending ticket should appear").toBeGreaterThan(0);
  return pending[0]!.id;
}

interface SimulatorState {
  connection: { status: string; qrcode: string };
}

/**
 * docs/api.md (Simulator): creates a simulator connection, waits for its pairing code, "scans" it and waits
 * until it is CONNECTED, so the scenario starts with a phone that delivers. `extra` adds connection fields
 * (greeting, queues).
 */
export async function pairSimulator(request: APIRequestContext, token: string, extra: Record<string, unknown> = {}): Promise<number> {
  const created = await request.post("/api/whatsapp", {
    headers: bearer(token),
    data: { name: "Simulador", channel: "simulator", isDefault: true, ...extra },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { id: number }).id;
  const read = async () => (await (await request.get(`/api/simulator/${id}`, { headers: bearer(token) })).json()) as SimulatorState;
  const state = await waitFor(read, (s) => s.connection.status === "qrcode" && !!s.connection.qrcode);
  expect(state.connection.qrcode, "the simulator connection should show a pairing code").toBeTruthy();
  await post(request, token, `/api/simulator/${id}/scan`, { code: state.connection.qrcode });
  const live = await waitFor(read, (s) => s.connection.status === "CONNECTED");
  expect(live.connection.status).toBe("CONNECTED");
  return id;
}

/** The connection's secret simulator link: `url` opens the phone page, `key` drives the phone's HTTP API without a session. */
export async function simulatorLink(request: APIRequestContext, token: string, connectionId: number): Promise<{ url: string; key: string }> {
  const link = await request.get(`/api/simulator/${connectionId}/link`, { headers: bearer(token) });
  expect(link.ok(), await link.text()).toBeTruthy();
  return (await link.json()) as { url: string; key: string };
}

/** Fills the login form already on screen and submits it with the button or with Enter in the password field. */
export async function fillLogin(page: Page, who: Person, submit: "button" | "enter" = "button") {
  await page.getByLabel("E-mail").fill(who.email);
  await page.getByLabel("Senha").fill(who.password);
  if (submit === "enter") await page.getByLabel("Senha").press("Enter");
  else await page.getByRole("button", { name: "Entrar" }).click();
}

/** Submits the login page without judging the outcome (for wrong passwords, expired companies, …). */
export async function submitLogin(page: Page, who: Person, submit: "button" | "enter" = "button") {
  await page.goto("/login");
  await fillLogin(page, who, submit);
}

/** Logs in through the page and waits until the app let the user in (on `landsOn` when given). */
export async function logIn(page: Page, who: Person, options: { submit?: "button" | "enter"; landsOn?: RegExp } = {}) {
  await submitLogin(page, who, options.submit);
  if (options.landsOn) await expect(page).toHaveURL(options.landsOn);
  else await expect(page).not.toHaveURL(/\/login$/);
}

function saoPaulo(at: Date, options: Intl.DateTimeFormatOptions) {
  const parts = new Intl.DateTimeFormat("en-GB", { timeZone: "America/Sao_Paulo", hourCycle: "h23", ...options }).formatToParts(at);
  return (type: string) => parts.find((p) => p.type === type)!.value;
}

/** "YYYY-MM-DDTHH:mm" of an instant on São Paulo's clock (the company's and the browser's time zone). */
export function saoPauloLocal(at: Date): string {
  const get = saoPaulo(at, { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" });
  return `${get("year")}-${get("month")}-${get("day")}T${get("hour")}:${get("minute")}`;
}

/** "YYYY-MM-DD" `offsetDays` from today in São Paulo, the day the server counts due dates by. */
export function saoPauloDay(offsetDays: number): string {
  const get = saoPaulo(new Date(Date.now() + offsetDays * 86_400_000), { year: "numeric", month: "2-digit", day: "2-digit" });
  return `${get("year")}-${get("month")}-${get("day")}`;
}

/** The next whole minute at least 20 s away: far enough for the form to be saved before the job is due. */
export function nextMinuteAtLeast20sAway(): Date {
  return new Date(Math.ceil((Date.now() + 20_000) / 60_000) * 60_000);
}

/** An .xlsx of contacts as a person would make it: a header row in Portuguese, then `rows` (name, number, e-mail). */
export async function contactsSpreadsheet(rows: [string, string, string][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Contatos");
  sheet.addRow(["Nome", "Número", "E-mail"]);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Picks the sheet on a contact list's page; returns the dialog that reports the import. */
export async function importSpreadsheet(page: Page, spreadsheet: Buffer): Promise<Locator> {
  await page.getByTestId("spreadsheet-input").setInputFiles({
    name: "clientes.xlsx",
    mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    buffer: spreadsheet,
  });
  return page.getByRole("dialog", { name: "Importação da planilha" });
}

/** Opens /tickets' Aguardando tab, accepts the customer's ticket and returns its conversation's message log. */
export async function acceptPendingTicket(page: Page, customerName: string): Promise<Locator> {
  await page.goto("/tickets");
  await page.getByRole("tab", { name: /Aguardando/ }).click();
  const row = page.getByRole("list", { name: "Aguardando" }).getByTestId("ticket-row").filter({ hasText: customerName });
  await row.getByRole("button", { name: "Aceitar" }).click();
  await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
  return page.getByRole("log", { name: "Mensagens" });
}
