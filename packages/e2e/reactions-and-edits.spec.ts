import { expect, test } from "@playwright/test";
import { openCustomerPhone } from "./support/phone";
import { acceptPendingTicket, logIn, newStamp, pairSimulator, signUpAndLogIn, simulatorLink } from "./support/world";

/**
 * Issue 21, item 2: a customer on /simulator edits one of their messages and reacts to the attendant's reply
 * (then changes and removes the reaction); the attendant sees each change live under the bubbles, the
 * "editada" mark and the earlier text in the edit history.
 */
const stamp = newStamp();
const owner = { name: `Confeitaria ${stamp}`, email: `dono-${stamp}@confeitaria.test`, password: "segredo-123" };
const customer = { number: "5511987650021", name: `Cliente ${stamp}` };

let simulatorUrl = "";

test.beforeAll(async ({ request }) => {
  const token = await signUpAndLogIn(request, owner);
  simulatorUrl = (await simulatorLink(request, token, await pairSimulator(request, token))).url;
});

test("a customer's edit and reactions reach the attendant's conversation live", async ({ browser, page }) => {
  const { context: phoneContext, page: phone, log: phoneLog, input } = await openCustomerPhone(browser, simulatorUrl, customer);
  await input.fill("Quero 2 bolos de cenoura");
  await input.press("Enter");
  const ownOnPhone = phoneLog.locator('[data-testid="simulator-message"][data-direction="out"]');
  await expect(ownOnPhone.filter({ hasText: "Quero 2 bolos de cenoura" })).toBeVisible();

  // The attendant takes the ticket and replies.
  await logIn(page, owner);
  const log = await acceptPendingTicket(page, customer.name);
  const theirs = log.locator('[data-testid="message"][data-from-me="false"]');
  const mine = log.locator('[data-testid="message"][data-from-me="true"]');
  await expect(theirs.filter({ hasText: "Quero 2 bolos de cenoura" })).toBeVisible();
  const composer = page.getByRole("textbox", { name: "Mensagem" });
  await composer.fill("Temos sim! Para quando?");
  await composer.press("Enter");
  await expect(mine.filter({ hasText: "Temos sim! Para quando?" })).toBeVisible();

  // The customer edits their message: the attendant sees the new text, the mark and the earlier text.
  await ownOnPhone.filter({ hasText: "Quero 2 bolos de cenoura" }).getByRole("button", { name: "Opções da mensagem" }).click();
  await phone.getByRole("menuitem", { name: "Editar" }).click();
  const editDialog = phone.getByRole("dialog", { name: "Editar mensagem" });
  await editDialog.getByRole("textbox", { name: "Novo texto" }).fill("Quero 3 bolos de cenoura");
  await editDialog.getByRole("button", { name: "Salvar" }).click();
  await expect(editDialog).toBeHidden();
  await expect(ownOnPhone.filter({ hasText: "Quero 3 bolos de cenoura" }).getByTestId("simulator-edited")).toHaveText("editada");

  const edited = theirs.filter({ hasText: "Quero 3 bolos de cenoura" });
  await expect(edited.getByTestId("edited-mark")).toHaveText("editada");
  await expect(theirs.filter({ hasText: "Quero 2 bolos de cenoura" })).toHaveCount(0);
  await edited.getByTestId("edited-mark").click();
  const history = page.getByTestId("edit-history");
  await expect(history.getByTestId("edit-history-item")).toHaveCount(1);
  await expect(history.getByTestId("edit-history-item")).toContainText("Quero 2 bolos de cenoura");
  await page.keyboard.press("Escape");
  await expect(history).toBeHidden();

  // The customer reacts to the reply, changes the reaction, then removes it.
  const replyOnPhone = phoneLog.locator('[data-testid="simulator-message"][data-direction="in"]').filter({ hasText: "Temos sim! Para quando?" });
  const reply = mine.filter({ hasText: "Temos sim! Para quando?" });
  await replyOnPhone.getByRole("button", { name: "Opções da mensagem" }).click();
  await phone.getByRole("button", { name: "Reagir com 👍" }).click();
  await expect(replyOnPhone.getByTestId("simulator-reaction")).toHaveText("👍");
  await expect(reply.getByTestId("reaction")).toHaveText("👍");

  await replyOnPhone.getByRole("button", { name: "Opções da mensagem" }).click();
  await phone.getByRole("button", { name: "Reagir com ❤️" }).click();
  await expect(reply.getByTestId("reaction")).toHaveText("❤️");
  await expect(reply.getByTestId("reaction")).toHaveCount(1);

  await replyOnPhone.getByRole("button", { name: "Opções da mensagem" }).click();
  await phone.getByRole("menuitem", { name: "Remover reação" }).click();
  await expect(replyOnPhone.getByTestId("simulator-reaction")).toHaveCount(0);
  await expect(reply.getByTestId("reaction")).toHaveCount(0);

  // After a reload the stored state is the same.
  await page.reload();
  await expect(theirs.filter({ hasText: "Quero 3 bolos de cenoura" }).getByTestId("edited-mark")).toBeVisible();
  await expect(mine.filter({ hasText: "Temos sim! Para quando?" })).toBeVisible();
  await expect(log.getByTestId("reaction")).toHaveCount(0);

  await phoneContext.close();
});
