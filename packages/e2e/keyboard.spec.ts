import { expect, test } from "@playwright/test";
import { logIn, newStamp, pairSimulator, pendingTicketId, post, signUpAndLogIn, type Owner } from "./support/world";

/**
 * Issue 16 item 7: the command palette (Ctrl+K) goes to a page and finds a ticket by the contact's name; the
 * inbox shortcuts accept (a) and resolve (r) the open ticket; `?` lists the shortcuts.
 */
const stamp = newStamp();
const owner: Owner = { name: `Floricultura ${stamp}`, email: `kbd-${stamp}@flores.test`, password: "segredo-123" };
const customer = { number: `55119${String(Date.now()).slice(-8)}`, name: `Helena ${stamp}` };
let ticketId = 0;

test.beforeAll(async ({ request }) => {
  // Prepared through the API first: the browser's login below ends this API session.
  const token = await signUpAndLogIn(request, owner);
  const connectionId = await pairSimulator(request, token);
  await post(request, token, `/api/simulator/${connectionId}/phones/${customer.number}/messages`, {
    type: "text",
    body: "Têm rosas?",
    name: customer.name,
  });
  ticketId = await pendingTicketId(request, token);
});

test("Ctrl+K goes to a page and finds a ticket by name; a accepts it, r resolves it; ? lists the shortcuts", async ({ page }) => {
  await logIn(page, owner);
  await expect(page.getByRole("navigation", { name: "Menu principal" })).toBeVisible();
  const palette = page.getByRole("combobox", { name: "Paleta de comandos" });

  // A page by its name.
  await page.keyboard.press("Control+k");
  await palette.fill("usuár");
  await expect(page.getByRole("option", { name: /Usuários/ })).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/users$/);
  await expect(palette).toHaveCount(0);

  // A ticket by its contact's name, through the tickets API.
  await page.keyboard.press("Control+k");
  await palette.fill(customer.name);
  const option = page.getByRole("option", { name: new RegExp(`#${ticketId} ${customer.name}`) });
  await expect(option).toBeVisible();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowUp");
  await option.click();
  await expect(page).toHaveURL(/\/tickets\/[\w-]+$/);
  const status = page.getByTestId("ticket-status");
  await expect(status).toContainText("Aguardando");

  // a accepts the open (pending) ticket.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press("a");
  await expect(status).toContainText("Em atendimento");

  // Typing in the composer does not trigger shortcuts: "r" stays in the text.
  const composer = page.getByRole("textbox", { name: "Mensagem", exact: true });
  await composer.click();
  await page.keyboard.type("r");
  await expect(composer).toHaveValue("r");
  await expect(status).toContainText("Em atendimento");
  await composer.fill("");

  // r resolves it once the focus left the field.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press("r");
  await expect(page).toHaveURL(/\/tickets$/);
  await page.getByRole("tab", { name: /Resolvidos/ }).click();
  await expect(page.getByRole("list", { name: "Resolvidos" }).getByText(customer.name)).toBeVisible();

  // ? opens the help sheet.
  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Atalhos de teclado" });
  await expect(help.getByText("Abrir a paleta de comandos")).toBeVisible();
  await expect(help.getByText("Resolver o ticket")).toBeVisible();
});

test("the app is installable: manifest with icons, service worker, offline shell page", async ({ page, context, request }) => {
  const manifest = (await (await request.get("/manifest.webmanifest")).json()) as {
    name: string;
    start_url: string;
    display: string;
    icons: { src: string }[];
  };
  expect(manifest).toMatchObject({ name: "Balcão", start_url: "/tickets", display: "standalone" });
  for (const icon of manifest.icons) expect((await request.get(icon.src)).status(), icon.src).toBe(200);

  await logIn(page, owner);
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute("href", "/manifest.webmanifest");
  const worker = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL ?? "");
  expect(worker).toMatch(/\/sw\.js$/);

  await context.setOffline(true);
  await page.goto("/tickets").catch(() => undefined);
  await expect(page.getByRole("heading", { name: "Sem conexão" })).toBeVisible();
  await context.setOffline(false);
});
