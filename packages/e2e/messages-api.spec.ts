import { expect, test } from "@playwright/test";
import { openCustomerPhone } from "./support/phone";
import { bearer, logIn, newStamp, pairSimulator, signUpAndLogIn, simulatorLink } from "./support/world";

/**
 * Issue 19: an admin opens /messages-api, reveals the connection's token (the one the server holds), sends a
 * test text through POST /api/messages/send with it, and the customer's phone on /simulator receives it.
 */
const stamp = newStamp();
const owner = { name: `Loja API ${stamp}`, email: `api-${stamp}@loja.test`, password: "segredo-123" };
const suffix = `6${String(Date.now() % 10_000_000).padStart(7, "5")}`.replace(/0000$/, "4321");
const customer = { name: `João ${stamp}`, number: `55119${suffix}` };

let simulatorUrl = "";
let connectionToken = "";

test.beforeAll(async ({ request }) => {
  const token = await signUpAndLogIn(request, owner);
  const connectionId = await pairSimulator(request, token);
  connectionToken = (await (await request.get(`/api/whatsapp/${connectionId}`, { headers: bearer(token) })).json()).token;
  simulatorUrl = (await simulatorLink(request, token, connectionId)).url;
});

test("the admin reveals the token, sends a test text through the send API, and the customer's phone receives it", async ({ browser, page }) => {
  test.setTimeout(120_000);
  const { context: phoneContext, log: phoneLog } = await openCustomerPhone(browser, simulatorUrl, customer);

  await logIn(page, owner);
  await page.goto("/messages-api");
  await expect(page.getByRole("heading", { name: "API de mensagens" })).toBeVisible();

  // Hidden until revealed; then the very token the server holds, also in the curl example with this origin.
  const tokenField = page.getByRole("textbox", { name: "Token da conexão" });
  await expect(tokenField).toHaveValue("•".repeat(24));
  await page.getByRole("button", { name: "Mostrar token" }).click();
  await expect(tokenField).toHaveValue(connectionToken);
  const origin = new URL(page.url()).origin;
  await expect(page.locator("pre").first()).toContainText(`curl -X POST '${origin}/api/messages/send'`);
  await expect(page.locator("pre").first()).toContainText(`Authorization: Bearer ${connectionToken}`);

  const form = page.getByRole("form", { name: "Testar envio de texto" });
  await form.getByRole("textbox", { name: /Número/ }).fill(customer.number);
  await form.getByRole("textbox", { name: /Mensagem/ }).fill(`Pedido ${stamp} confirmado pela API`);
  await form.getByRole("button", { name: "Enviar texto" }).click();
  await expect(form.getByText(/Mensagem enviada \(atendimento #\d+\)\./)).toBeVisible();

  await expect(
    phoneLog.locator('[data-testid="simulator-message"][data-direction="in"]').filter({ hasText: `Pedido ${stamp} confirmado pela API` }),
  ).toHaveCount(1);
  await phoneContext.close();
});
