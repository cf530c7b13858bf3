import { expect, test } from "@playwright/test";
import { apiToken, bearer, logIn, newStamp, signUpAndLogIn } from "./support/world";

/**
 * Issue 18: two colleagues chat live — the owner on a wide screen creates the chat and writes; the attendant,
 * on a phone-sized screen (tabs Chats / Mensagens), sees the unread badges, opens the chat (badges reset)
 * and answers with Enter, and the owner's pane shows the answer without a reload.
 */
const stamp = newStamp();
const owner = { name: `Oficina ${stamp}`, email: `dono-${stamp}@oficina.test`, password: "segredo-123" };
const attendant = { name: `Bruna ${stamp}`, email: `bruna-${stamp}@oficina.test`, password: "senha-123" };
const title = `Plantão ${stamp}`;
const historian = { name: `Carla ${stamp}`, email: `carla-${stamp}@oficina.test`, password: "senha-456" };
const historyTitle = `Histórico ${stamp}`;

test.beforeAll(async ({ request }) => {
  const token = await signUpAndLogIn(request, owner);
  const ownerId = (await (await request.get("/api/auth/me", { headers: bearer(token) })).json()).id as number;
  for (const person of [attendant, historian]) {
    const created = await request.post("/api/users", {
      headers: bearer(token),
      data: { ...person, profile: "user", queueIds: [] },
    });
    expect(created.ok(), await created.text()).toBeTruthy();
  }
  // A third colleague's chat with the owner and 45 messages: three pages to scroll back through.
  const carla = bearer(await apiToken(request, historian));
  const history = await (await request.post("/api/chats", { headers: carla, data: { title: historyTitle, users: [{ id: ownerId }] } })).json();
  for (let i = 1; i <= 45; i++) {
    const sent = await request.post(`/api/chats/${history.id}/messages`, { headers: carla, data: { message: `Histórico ${i}` } });
    expect(sent.status()).toBe(201);
  }
});

test("two colleagues chat live, one of them on a narrow screen", async ({ browser, page }) => {
  // The attendant, on a phone.
  const phoneContext = await browser.newContext({ viewport: { width: 390, height: 780 }, locale: "pt-BR", timezoneId: "America/Sao_Paulo" });
  const phone = await phoneContext.newPage();
  await logIn(phone, attendant, { submit: "enter" });
  await phone.goto("/chats");
  await expect(phone.getByRole("tab", { name: "Chats" })).toHaveAttribute("aria-selected", "true");
  await expect(phone.getByText("Nenhuma conversa")).toBeVisible();

  // The owner, on a desktop, creates the chat (the spec's texts first) and writes.
  await logIn(page, owner, { submit: "enter" });
  await page.goto("/chats");
  await page.getByRole("button", { name: "Nova", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Nova conversa" });
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog.getByText("Por favor, preencha o título da conversa.")).toBeVisible();
  await expect(dialog.getByText("Por favor, selecione pelo menos um usuário.")).toBeVisible();
  await dialog.getByLabel("Título").fill(title);
  await dialog.getByRole("combobox", { name: "Usuários" }).click();
  await page.getByRole("option", { name: attendant.name }).click();
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog).toBeHidden();
  const ownerPane = page.getByTestId("chat-pane");
  await expect(ownerPane.getByRole("heading", { name: title })).toBeVisible();
  const ownerInput = ownerPane.getByRole("textbox", { name: "Mensagem" });
  await ownerInput.fill("Alguém cobre o turno de sábado?");
  await ownerInput.press("Enter");
  await expect(ownerPane.getByTestId("chat-message").filter({ hasText: "Alguém cobre o turno de sábado?" })).toBeVisible();
  await expect(ownerInput).toHaveValue("");

  // The phone: the chat arrived live with one unread message, in the list and on the top-bar badge.
  const item = phone.getByTestId("chat-item").filter({ hasText: title });
  await expect(item).toBeVisible();
  await expect(item.getByTestId("chat-unread")).toHaveAttribute("data-count", "1");
  await expect(phone.getByTestId("chats-unread")).toHaveAttribute("data-count", "1");
  await expect(phone.getByRole("button", { name: "Chat interno: 1 mensagens não lidas" })).toBeVisible();
  await item.click();
  await expect(phone.getByRole("tab", { name: "Mensagens" })).toHaveAttribute("aria-selected", "true");
  const phonePane = phone.getByTestId("chat-pane");
  await expect(phonePane.getByTestId("chat-message").filter({ hasText: "Alguém cobre o turno de sábado?" })).toBeVisible();
  // Opened: the unread badge resets.
  await expect(phone.getByTestId("chats-unread")).toHaveAttribute("data-count", "0");

  // Shift+Enter breaks the line; Enter sends.
  const phoneInput = phonePane.getByRole("textbox", { name: "Mensagem" });
  await phoneInput.fill("Eu cubro.");
  await phoneInput.press("Shift+Enter");
  await phoneInput.pressSequentially("Até as 18h.");
  await phoneInput.press("Enter");
  await expect(phonePane.getByTestId("chat-message").filter({ hasText: "Até as 18h." })).toBeVisible();

  // The owner sees the answer live, in the open pane (read at once: no badge).
  await expect(ownerPane.getByTestId("chat-message").filter({ hasText: "Eu cubro." })).toContainText("Até as 18h.");
  await expect(ownerPane.getByTestId("chat-message").filter({ hasText: "Eu cubro." })).toContainText(attendant.name);
  await expect(page.getByTestId("chat-item").filter({ hasText: title })).toContainText("Até as 18h.");

  // Back on the list tab, the phone's chat shows no unread count.
  await phone.getByRole("tab", { name: "Chats" }).click();
  await expect(item.getByTestId("chat-unread")).toHaveAttribute("data-count", "0");
  await phoneContext.close();

  // Older messages load when the pane is scrolled near the top, and the view keeps its place.
  await page.getByTestId("chat-item").filter({ hasText: historyTitle }).click();
  const pane = page.getByTestId("chat-pane");
  const log = pane.getByTestId("chat-messages");
  await expect(pane.getByText("Histórico 45", { exact: true })).toBeVisible();
  await expect(pane.getByText("Histórico 1", { exact: true })).toHaveCount(0);
  const firstLoaded = pane.getByText("Histórico 26", { exact: true });
  await log.evaluate((el) => (el.scrollTop = 0));
  await expect(pane.getByText("Histórico 6", { exact: true })).toHaveCount(1);
  // The message that was at the top is still on screen, not pushed away by the page put above it.
  await expect(firstLoaded).toBeInViewport();
  expect(await log.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
  await log.evaluate((el) => (el.scrollTop = 0));
  await expect(pane.getByText("Histórico 1", { exact: true })).toHaveCount(1);
});
