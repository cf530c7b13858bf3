import { expect, test } from "@playwright/test";
import { openCustomerPhone } from "./support/phone";
import { acceptPendingTicket, logIn, newStamp, pairSimulator, signUpAndLogIn, simulatorLink } from "./support/world";

/**
 * Issue 21, item 4 (inbound side): the customer writes while the company's connection is down. On /simulator the
 * message waits on the phone (clock, banner); when the connection is back it reaches the attendant's open
 * conversation once.
 */
const stamp = newStamp();
const owner = { name: `Padaria ${stamp}`, email: `dono-${stamp}@padaria.test`, password: "segredo-123" };
const customer = { number: "5511987650041", name: `Cliente ${stamp}` };

let simulatorUrl = "";

test.beforeAll(async ({ request }) => {
  const token = await signUpAndLogIn(request, owner);
  simulatorUrl = (await simulatorLink(request, token, await pairSimulator(request, token))).url;
});

test("a message written while the connection is down waits on the phone and reaches the attendant once when it is back", async ({
  browser,
  page,
}) => {
  const { context: phoneContext, page: phone, log: phoneLog, input } = await openCustomerPhone(browser, simulatorUrl, customer);
  await input.fill("Bom dia, tem pão de queijo?");
  await input.press("Enter");
  await expect(phoneLog.getByText("Bom dia, tem pão de queijo?")).toBeVisible();

  await logIn(page, owner);
  const log = await acceptPendingTicket(page, customer.name);
  await expect(log.getByText("Bom dia, tem pão de queijo?")).toBeVisible();

  // WhatsApp's connection is lost: the phone keeps its chat open and says what happens to what it sends.
  await phone.getByRole("button", { name: "Derrubar conexão" }).click();
  await expect(phone.getByRole("button", { name: "Reconectar" })).toBeVisible();
  await expect(phone.getByTestId("simulator-offline")).toContainText("A conexão caiu.");
  await input.fill("Ainda estão abertos?");
  await input.press("Enter");
  await expect(phone.getByText("A conexão está fora do ar: a mensagem ficou aguardando")).toBeVisible();
  const held = phoneLog.locator('[data-testid="simulator-message"]').filter({ hasText: "Ainda estão abertos?" });
  await expect(held.getByTestId("simulator-queued")).toBeVisible();
  await expect(phone.getByTestId("simulator-offline")).toContainText("1 mensagem aguardando.");
  await expect(log.getByText("Ainda estão abertos?")).toHaveCount(0);

  // Back: the late batch is delivered, once.
  await phone.getByRole("button", { name: "Reconectar" }).click();
  await expect(phone.getByText("Conexão de volta: 1 mensagem entregue.")).toBeVisible();
  await expect(held.getByTestId("simulator-queued")).toHaveCount(0);
  await expect(log.getByText("Ainda estão abertos?")).toHaveCount(1);
  await page.reload();
  await expect(log.getByText("Ainda estão abertos?")).toHaveCount(1);
  await phoneContext.close();
});
