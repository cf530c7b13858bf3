import { expect, test } from "@playwright/test";
import { openCustomerPhone } from "./support/phone";
import { acceptPendingTicket, logIn, newStamp, pairSimulator, signUpAndLogIn, simulatorLink } from "./support/world";

/**
 * Issue 21, item 4: nothing lost across a reconnect. The connection drops on /simulator, the attendant replies
 * (the bubble shows the pending clock), the connection comes back and the customer receives the reply once.
 */
const stamp = newStamp();
const owner = { name: `Mercado ${stamp}`, email: `dono-${stamp}@mercado.test`, password: "segredo-123" };
const customer = { number: "5511987650031", name: `Cliente ${stamp}` };

let simulatorUrl = "";

test.beforeAll(async ({ request }) => {
  const token = await signUpAndLogIn(request, owner);
  simulatorUrl = (await simulatorLink(request, token, await pairSimulator(request, token))).url;
});

test("a reply sent while the connection is down waits (clock) and reaches the customer once when it is back", async ({ browser, page }) => {
  const { context: phoneContext, page: phone, log: phoneLog, input, fromCompany } = await openCustomerPhone(browser, simulatorUrl, customer);
  await input.fill("Vocês abrem amanhã?");
  await input.press("Enter");
  await expect(phoneLog.getByText("Vocês abrem amanhã?")).toBeVisible();

  await logIn(page, owner);
  const log = await acceptPendingTicket(page, customer.name);
  await expect(log.getByText("Vocês abrem amanhã?")).toBeVisible();

  // WhatsApp's connection is lost.
  await phone.getByRole("button", { name: "Derrubar conexão" }).click();
  await expect(phone.getByRole("button", { name: "Reconectar" })).toBeVisible();

  const composer = page.getByRole("textbox", { name: "Mensagem" });
  await composer.fill("Abrimos às 8h");
  await composer.press("Enter");
  const reply = log.locator('[data-testid="message"][data-from-me="true"]').filter({ hasText: "Abrimos às 8h" });
  await expect(reply.locator("[data-ack=pending]")).toBeVisible();

  // Back: the reply goes, once.
  await phone.getByRole("button", { name: "Reconectar" }).click();
  await expect(fromCompany.filter({ hasText: "Abrimos às 8h" })).toHaveCount(1);
  await expect(reply.locator("[data-ack=pending]")).toHaveCount(0);
  await expect(reply).toHaveCount(1);
  await phoneContext.close();
});
