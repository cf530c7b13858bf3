import { expect, test } from "@playwright/test";
import { openCustomerPhone } from "./support/phone";
import { logIn, newStamp, pairSimulator, post, signUpAndLogIn, simulatorLink } from "./support/world";

/**
 * Issue 5: a customer on /simulator sends a text, an image and a location; the attendant replies with a
 * quoted reply, an attachment and a quick message; the customer sees them; the attendant deletes one and
 * it is shown as deleted on both sides.
 */
const stamp = newStamp();
const owner = { name: `Gráfica ${stamp}`, email: `dono-${stamp}@grafica.test`, password: "segredo-123" };
const attendant = { name: `Carla ${stamp}`, email: `carla-${stamp}@grafica.test`, password: "senha-123" };
const customer = { number: "5511987650002", name: `Cliente ${stamp}` };
const quick = { shortcode: `orc${stamp}`, message: "Nosso orçamento vale por 7 dias úteis." };
/** A real 1×1 PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
const PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
);

let simulatorUrl = "";

test.beforeAll(async ({ request }) => {
  const token = await signUpAndLogIn(request, owner);
  await post(request, token, "/api/users", { ...attendant, profile: "user", queueIds: [] });
  await post(request, token, "/api/quick-messages", quick);
  simulatorUrl = (await simulatorLink(request, token, await pairSimulator(request, token))).url;
});

test("text, image and location in; quoted reply, attachment and quick message out; a deletion seen on both sides", async ({ browser, page }) => {
  // The customer's phone: the secret link, in its own browser context.
  const { context: phoneContext, page: phone, chat, log: phoneLog, input, fromCompany } = await openCustomerPhone(browser, simulatorUrl, customer);

  // Text.
  await input.fill("Oi, quero um orçamento de cartões de visita");
  await input.press("Enter");
  await expect(phoneLog.getByText("Oi, quero um orçamento de cartões de visita")).toBeVisible();
  // Image (a real PNG from the computer), with a caption.
  await chat.getByTestId("simulator-file-input").setInputFiles({ name: "modelo.png", mimeType: "image/png", buffer: PNG });
  const attachment = phone.getByRole("dialog", { name: "Enviar Imagem" });
  await attachment.getByLabel("Legenda (opcional)").fill("Este é o modelo");
  await attachment.getByRole("button", { name: "Enviar" }).click();
  await expect(attachment).toBeHidden();
  await expect(phoneLog.locator('[data-testid="simulator-message"][data-kind="image"]')).toContainText("Este é o modelo");
  // Location.
  await chat.getByRole("button", { name: "Enviar localização" }).click();
  const location = phone.getByRole("dialog", { name: "Enviar localização" });
  await location.getByLabel("Descrição (opcional)").fill("Minha loja");
  await location.getByRole("button", { name: "Enviar" }).click();
  await expect(location).toBeHidden();
  await expect(phoneLog.locator('[data-testid="simulator-message"][data-kind="location"]')).toContainText("Minha loja");

  // The attendant accepts the ticket and sees the three messages.
  await logIn(page, attendant);
  await page.goto("/tickets");
  await page.getByRole("tab", { name: /Aguardando/ }).click();
  const row = page.getByRole("list", { name: "Aguardando" }).getByTestId("ticket-row").filter({ hasText: customer.name });
  await expect(row.getByTestId("ticket-last-message")).toHaveText("Localização");
  await row.getByRole("button", { name: "Aceitar" }).click();
  await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
  const log = page.getByRole("log", { name: "Mensagens" });
  const theirs = log.locator('[data-testid="message"][data-from-me="false"]');
  await expect(theirs.filter({ hasText: "Oi, quero um orçamento de cartões de visita" })).toBeVisible();
  await expect(theirs.filter({ hasText: "Este é o modelo" }).getByRole("img")).toBeVisible();
  await expect(theirs.filter({ hasText: "Minha loja" }).getByRole("link", { name: "Visualizar no mapa" })).toBeVisible();

  // A quoted reply to the first message.
  await theirs.filter({ hasText: "Oi, quero um orçamento de cartões de visita" }).getByRole("button", { name: "Opções da mensagem" }).click();
  await page.getByRole("menuitem", { name: "Responder" }).click();
  await expect(page.getByTestId("reply-preview")).toContainText("Oi, quero um orçamento");
  const composer = page.getByRole("textbox", { name: "Mensagem" });
  await composer.fill("Claro! Quantas unidades?");
  await composer.press("Enter");
  const mine = log.locator('[data-testid="message"][data-from-me="true"]');
  await expect(mine.filter({ hasText: "Claro! Quantas unidades?" }).getByTestId("quoted-message")).toContainText("Oi, quero um orçamento");

  // An attachment.
  await page.getByTestId("composer-file-input").setInputFiles({ name: "tabela-de-precos.pdf", mimeType: "application/pdf", buffer: PDF });
  const preview = page.getByRole("dialog", { name: "Enviar 1 arquivo" });
  await preview.getByRole("button", { name: "Enviar" }).click();
  await expect(preview).toBeHidden();
  await expect(mine.getByRole("button", { name: /Baixar tabela-de-precos\.pdf/ })).toBeVisible();

  // A quick message picked from the '/' suggestions.
  await composer.fill(`/${quick.shortcode.slice(0, 5)}`);
  const suggestions = page.getByRole("listbox", { name: "Respostas rápidas" });
  await suggestions.getByRole("option", { name: new RegExp(quick.shortcode) }).click();
  await expect(composer).toHaveValue(quick.message);
  await composer.press("Enter");
  await expect(mine.filter({ hasText: quick.message })).toBeVisible();

  // The customer's phone shows all three: the quote, the document and the quick message.
  await expect(fromCompany.filter({ hasText: "Claro! Quantas unidades?" }).getByTestId("quoted-message")).toContainText("Oi, quero um orçamento");
  await expect(fromCompany.filter({ has: phone.getByRole("button", { name: /Baixar tabela-de-precos\.pdf/ }) })).toHaveCount(1);
  const quickOnPhone = fromCompany.filter({ hasText: quick.message });
  await expect(quickOnPhone).toBeVisible();

  // The attendant deletes the quick message: marked deleted on both sides.
  await mine.filter({ hasText: quick.message }).getByRole("button", { name: "Opções da mensagem" }).click();
  await page.getByRole("menuitem", { name: "Deletar" }).click();
  await page.getByRole("dialog", { name: "Apagar mensagem?" }).getByRole("button", { name: "Excluir" }).click();
  await expect(mine.filter({ hasText: quick.message })).toHaveCount(0);
  await expect(mine.filter({ hasText: "Esta mensagem foi apagada" })).toHaveCount(1);
  await expect(fromCompany.filter({ hasText: quick.message })).toHaveCount(0);
  await expect(phoneLog.locator('[data-testid="simulator-message"][data-direction="in"][data-deleted="true"]')).toContainText(
    "Esta mensagem foi apagada pela empresa",
  );

  await phoneContext.close();
});
