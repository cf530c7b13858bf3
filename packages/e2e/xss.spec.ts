import { expect, test, type APIRequestContext, type Page } from "@playwright/test";

/**
 * Issue 11: classic XSS payloads stored through the API in every user-provided field the web renders, then
 * every page that shows them opened in Chromium. Each payload sets `window.__xss` and opens an alert when it
 * runs; neither may happen, and no `javascript:` link may be rendered.
 */
const stamp = Date.now().toString(36);
const PAYLOADS = [
  `<img src=x onerror="window.__xss=1;alert(1)">`,
  `<script>window.__xss=1;alert(1)</script>`,
  `javascript:window.__xss=1;alert(1)`,
  `"><svg onload="window.__xss=1;alert(1)">`,
];
const ALL = PAYLOADS.join(" ");
const owner = { name: `Loja ${stamp}`, email: `xss-${stamp}@loja.test`, password: "segredo-123" };
const SUPER = { email: "super@balcao.test", password: "Sup3r-Secret!" };
const customer = `55119${String(Date.now()).slice(-8)}`;

// About twenty pages on a shared CI machine: more than the default minute.
test.describe.configure({ timeout: 300_000 });

let ticketId = 0;
let chatId = 0;
let contactListId = 0;
let campaignId = 0;

async function post(request: APIRequestContext, token: string, path: string, data: unknown) {
  const res = await request.post(path, { headers: { Authorization: `Bearer ${token}` }, data });
  expect(res.ok(), `${path}: ${await res.text()}`).toBeTruthy();
  return res.json();
}

async function tokenOf(request: APIRequestContext, email: string, password: string): Promise<string> {
  const res = await request.post("/api/auth/login", { data: { email, password } });
  expect(res.ok(), await res.text()).toBeTruthy();
  return (await res.json()).token as string;
}

test.beforeAll(async ({ request }) => {
  const plans = (await (await request.get("/api/plans/list")).json()) as { id: number; users: number; connections: number }[];
  const plan = plans.reduce((a, b) => (b.users > a.users ? b : a));
  const signup = await request.post("/api/companies/cadastro", { data: { ...owner, phone: "", planId: plan.id } });
  expect(signup.status(), await signup.text()).toBe(201);
  const token = await tokenOf(request, owner.email, owner.password);
  const auth = { Authorization: `Bearer ${token}` };
  const me = (await (await request.get("/api/auth/me", { headers: auth })).json()) as { id: number };

  // Names (at most 50 characters): one record per payload.
  const contactIds: number[] = [];
  for (const [i, p] of PAYLOADS.entries()) {
    const contact = await post(request, token, "/api/contacts", {
      name: p,
      number: `55119876543${String(10 + i)}`,
      extraInfo: [{ name: p, value: ALL }],
    });
    contactIds.push(contact.id);
    // Tags are kanban lanes too.
    await post(request, token, "/api/tags", { name: p, kanban: 1 });
    await post(request, token, "/api/queue", { name: p, color: `#3f51b${i}`, greetingMessage: ALL });
    await post(request, token, "/api/users", { name: p, email: `xss${i}-${stamp}@loja.test`, password: "senha-123", profile: "user", queueIds: [] });
    campaignId = (await post(request, token, "/api/campaigns", { name: p, message1: ALL })).id;
    contactListId = (await post(request, token, "/api/contact-lists", { name: p })).id;
    await post(request, token, "/api/contact-list-items", { name: p, number: `55119876544${String(10 + i)}`, email: "", contactListId });
  }
  // A free-text company setting (an integration key).
  const setting = await request.put("/api/settings/ipixc", { headers: auth, data: { value: ALL } });
  expect(setting.ok(), await setting.text()).toBeTruthy();
  // Longer texts: every payload at once.
  await post(request, token, "/api/quick-messages", { shortcode: `xss${stamp}`.slice(0, 50), message: ALL });
  await post(request, token, "/api/schedules", { body: ALL, contactId: contactIds[0], sendAt: new Date(Date.now() + 86_400_000).toISOString() });
  const chat = await post(request, token, "/api/chats", { title: PAYLOADS[0], users: [{ id: me.id }] });
  chatId = chat.id;
  await post(request, token, `/api/chats/${chat.id}/messages`, { message: ALL });

  // A customer writes through the simulator, with a hostile push name and text.
  // The connection's name and its automatic messages (greeting, completion, out of hours, rating, farewell).
  const connection = await post(request, token, "/api/whatsapp", {
    name: PAYLOADS[1],
    channel: "simulator",
    isDefault: true,
    greetingMessage: ALL,
    complationMessage: ALL,
    outOfHoursMessage: ALL,
    ratingMessage: ALL,
    farewellMessage: ALL,
  });
  let qrcode = "";
  for (let i = 0; i < 120 && !qrcode; i++) {
    const state = (await (await request.get(`/api/simulator/${connection.id}`, { headers: auth })).json()) as {
      connection: { status: string; qrcode: string };
    };
    if (state.connection.status === "qrcode" && state.connection.qrcode) qrcode = state.connection.qrcode;
    else await new Promise((r) => setTimeout(r, 250));
  }
  expect(qrcode).not.toBe("");
  await post(request, token, `/api/simulator/${connection.id}/scan`, { code: qrcode });
  await post(request, token, `/api/simulator/${connection.id}/phones/${customer}/messages`, { type: "text", body: ALL, name: PAYLOADS[3] });
  for (let i = 0; i < 120 && !ticketId; i++) {
    const list = (await (await request.get("/api/tickets?status=pending&showAll=true", { headers: auth })).json()) as { tickets: { id: number }[] };
    if (list.tickets[0]) ticketId = list.tickets[0].id;
    else await new Promise((r) => setTimeout(r, 250));
  }
  expect(ticketId).toBeGreaterThan(0);
  const accepted = await request.put(`/api/tickets/${ticketId}`, { headers: auth, data: { status: "open", userId: me.id } });
  expect(accepted.ok(), await accepted.text()).toBeTruthy();
  const ticket = (await accepted.json()) as { contactId: number };
  await post(request, token, "/api/ticket-notes", { note: ALL, ticketId, contactId: ticket.contactId });
  await post(request, token, `/api/messages/${ticketId}`, { body: ALL });

  // Platform announcements, by the super user.
  const superToken = await tokenOf(request, SUPER.email, SUPER.password);
  await post(request, superToken, "/api/announcements", { title: PAYLOADS[0], text: ALL });
  // Help pages, by the super user (the video field accepts only a YouTube code or link).
  await post(request, superToken, "/api/helps", { title: PAYLOADS[0], description: ALL, video: "dQw4w9WgXcQ" });
});

async function login(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Senha").fill(password);
  await page.getByLabel("Senha").press("Enter");
  await expect(page).not.toHaveURL(/\/login$/);
}

/** Opens a page, waits until a payload is on it as text (unless `shown` is false), and checks that nothing ran. */
async function visit(page: Page, path: string, shown = true) {
  await page.goto(path);
  if (shown)
    await expect(page.getByText("window.__xss", { exact: false }).first(), `a payload shown as text on ${path}`).toBeVisible({ timeout: 30_000 });
  else await expect(page.getByRole("tablist")).toBeVisible({ timeout: 30_000 });
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss), `script ran on ${path}`).toBeUndefined();
  expect(await page.locator('a[href^="javascript:" i]').count(), `javascript: link on ${path}`).toBe(0);
}

test("stored XSS payloads are shown as text on every page, and none runs", async ({ page }) => {
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await login(page, owner.email, owner.password);
  for (const path of [
    `/tickets/${ticketId}`,
    "/contacts",
    "/tags",
    "/queues",
    "/users",
    "/quick-messages",
    "/schedules",
    `/chats/${chatId}`,
    "/campaigns",
    `/campaign/${campaignId}/report`,
    "/announcements",
    "/connections",
    "/helps",
    "/kanban",
    "/contact-lists",
    `/contact-lists/${contactListId}/contacts`,
  ])
    await visit(page, path);
  // The free-text settings (integration keys) are not shown by the web: the page must just stay inert.
  await visit(page, "/settings", false);
  // The connection's form shows its automatic messages; a contact's form, its extra fields.
  for (const path of ["/connections", "/contacts"]) {
    await page.goto(path);
    await page
      .getByRole("button", { name: /^editar/i })
      .first()
      .click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toBeVisible({ timeout: 30_000 });
    await expect
      .poll(
        () => dialog.locator("input, textarea").evaluateAll((fields) => fields.some((f) => (f as HTMLInputElement).value.includes("window.__xss"))),
        { message: `a payload in the form on ${path}`, timeout: 30_000 },
      )
      .toBe(true);
  }
  await page.goto("/");
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
});
