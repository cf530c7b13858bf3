import { expect, test } from "@playwright/test";
import { expectNoViolations } from "./support/axe";
import { bearer, logIn, newStamp, pairSimulator, pendingTicketId, post, signUpAndLogIn, type Owner } from "./support/world";

/**
 * Issue 16 item 8: axe-core with the WCAG 2.0/2.1 A and AA rules reports no violation on any page of the app
 * (every route of packages/web's router, PAGE_ACCESS in packages/shared): the public pages signed out, the
 * company pages as a company admin with data on them (the super user's pages: accessibility-super.spec.ts).
 * No rule and no selector is excluded.
 */
const stamp = newStamp();
const owner: Owner = { name: `Papelaria ${stamp}`, email: `a11y-${stamp}@papelaria.test`, password: "segredo-123" };
const customer = { number: `55119${String(Date.now()).slice(-8)}`, name: `Cliente ${stamp}` };

let ticketId = 0;
let chatId = 0;
let contactListId = 0;
let campaignId = 0;
let connectionId = 0;

test.use({ viewport: { width: 1366, height: 800 }, reducedMotion: "reduce" });

test.beforeAll(async ({ request }) => {
  const token = await signUpAndLogIn(request, owner);
  const auth = bearer(token);
  const me = (await (await request.get("/api/auth/me", { headers: auth })).json()) as { id: number };
  const enable = await request.put("/api/settings/campaignsEnabled", { headers: auth, data: { value: "true" } });
  expect(enable.ok(), await enable.text()).toBeTruthy();

  const queue = await post(request, token, "/api/queue", { name: `Vendas ${stamp}`, color: "#1565C0" });
  await post(request, token, "/api/tags", { name: `VIP ${stamp}`, color: "#6A1B9A", kanban: 1 });
  await post(request, token, "/api/quick-messages", { shortcode: `ola${stamp}`.slice(0, 20), message: "Olá! Como posso ajudar?" });
  await post(request, token, "/api/users", {
    name: `Atendente ${stamp}`,
    email: `atendente-${stamp}@papelaria.test`,
    password: "senha-123",
    profile: "user",
    queueIds: [queue.id],
  });
  const list = await post(request, token, "/api/contact-lists", { name: `Lista ${stamp}` });
  contactListId = list.id;
  await post(request, token, "/api/contact-list-items", { name: "Maria Souza", number: "5511987650001", contactListId });
  const campaign = await post(request, token, "/api/campaigns", { name: `Promo ${stamp}`, message1: "Oi {nome}!", contactListId });
  campaignId = campaign.id;
  const chat = await post(request, token, "/api/chats", { title: `Equipe ${stamp}`, users: [{ id: me.id }] });
  chatId = chat.id;
  await post(request, token, `/api/chats/${chatId}/messages`, { message: "Bom dia, equipe" });

  // A customer writes through the simulator; the admin accepts the ticket and answers.
  connectionId = await pairSimulator(request, token);
  await post(request, token, `/api/simulator/${connectionId}/phones/${customer.number}/messages`, {
    type: "text",
    body: "Vocês têm caderno?",
    name: customer.name,
  });
  ticketId = await pendingTicketId(request, token, { showAll: true });
  const accepted = await request.put(`/api/tickets/${ticketId}`, { headers: auth, data: { status: "open", userId: me.id } });
  expect(accepted.ok(), await accepted.text()).toBeTruthy();
  await post(request, token, `/api/messages/${ticketId}`, { body: "Temos sim!" });
  await post(request, token, "/api/schedules", {
    body: "Lembrete",
    contactId: ((await accepted.json()) as { contactId: number }).contactId,
    sendAt: new Date(Date.now() + 86_400_000).toISOString(),
  });
});

test("the public pages have no WCAG A/AA violation", async ({ page }) => {
  for (const path of ["/login", "/signup"]) await expectNoViolations(page, path);
});

/** Every page of the router an admin opens, with the records beforeAll made for the pages with an id. */
const ADMIN_PAGES: (() => string)[] = [
  () => "/",
  () => "/tickets",
  () => `/tickets/${ticketId}`,
  () => "/connections",
  () => "/quick-messages",
  () => "/todolist",
  () => "/schedules",
  () => "/tags",
  () => "/contacts",
  () => "/helps",
  () => "/kanban",
  () => "/chats",
  () => `/chats/${chatId}`,
  () => "/users",
  () => "/queues",
  () => "/messages-api",
  () => "/settings",
  () => "/financeiro",
  () => "/subscription",
  () => "/contact-lists",
  () => `/contact-lists/${contactListId}/contacts`,
  () => "/campaigns",
  () => `/campaign/${campaignId}/report`,
  () => "/campaigns-config",
  () => `/simulator/${connectionId}`,
];

// A group of pages per test keeps each test short (axe takes a few seconds per page on a busy machine).
for (let from = 0; from < ADMIN_PAGES.length; from += 5) {
  const group = ADMIN_PAGES.slice(from, from + 5);
  test(`company pages ${from + 1}–${from + group.length} have no WCAG A/AA violation for an admin`, async ({ page }) => {
    test.setTimeout(150_000);
    await logIn(page, owner);
    for (const path of group) await expectNoViolations(page, path());
  });
}

test("at 1366×800 the drawer shows Sair whole and a ticket's chips stay on one line", async ({ page }) => {
  await logIn(page, owner);
  await page.goto("/tickets");
  const logout = page.getByRole("navigation", { name: "Menu principal" }).getByRole("button", { name: "Sair" });
  await expect(logout).toBeInViewport({ ratio: 1 });
  const box = (await logout.boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(800);

  const row = page.getByRole("list", { name: "Atendendo" }).getByTestId("ticket-row").filter({ hasText: customer.name });
  const chips = row.getByTestId("ticket-chips").locator(".MuiChip-root");
  await expect(chips).toHaveCount(3);
  const tops = await chips.evaluateAll((nodes) => nodes.map((n) => Math.round(n.getBoundingClientRect().top)));
  expect(new Set(tops).size, `chip tops ${tops.join(", ")}`).toBe(1);
});
