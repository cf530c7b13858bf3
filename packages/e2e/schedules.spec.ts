import { expect, test } from "@playwright/test";
import { openCustomerPhone } from "./support/phone";
import { logIn, newStamp, nextMinuteAtLeast20sAway, pairSimulator, post, saoPauloLocal, signUpAndLogIn, simulatorLink } from "./support/world";

/**
 * Issue 15: an attendant schedules a message one minute ahead on /schedules; the durable job sends it at
 * that time through the company's simulator connection and the customer's phone on /simulator receives it
 * (template variables filled), while the schedules page turns the row to 'Enviada' live.
 */
const stamp = newStamp();
const owner = { name: `Clínica ${stamp}`, email: `dono-${stamp}@clinica.test`, password: "segredo-123" };
const suffix = `7${String(Date.now() % 10_000_000).padStart(7, "3")}`.replace(/0000$/, "4321");
const customer = { name: `Maria ${stamp}`, number: `55119${suffix}` };

let simulatorUrl = "";

test.beforeAll(async ({ request }) => {
  const token = await signUpAndLogIn(request, owner);
  const connectionId = await pairSimulator(request, token);
  await post(request, token, "/api/contacts", { name: customer.name, number: customer.number });
  simulatorUrl = (await simulatorLink(request, token, connectionId)).url;
});

test("a message scheduled a minute ahead arrives on the customer's phone and the row turns 'Enviada'", async ({ browser, page }) => {
  test.setTimeout(180_000);
  // The customer's phone on /simulator, in its own browser context.
  const { context: phoneContext, log: phoneLog } = await openCustomerPhone(browser, simulatorUrl, customer);

  await logIn(page, owner);
  await page.goto("/schedules");
  await expect(page.getByRole("heading", { name: "Agendamentos" })).toBeVisible();
  const openedAt = Date.now();
  await page.getByRole("button", { name: "Novo agendamento" }).click();
  const dialog = page.getByRole("dialog", { name: "Novo agendamento" });
  // Spec §4: a new schedule starts one hour ahead: an hour after the click, read in the minute of the click or of
  // the read (a slow machine crossed a minute between them: 06:39 against 06:40).
  const when = dialog.getByLabel(/Data e hora de envio/);
  const defaultWhen = await when.inputValue();
  expect([openedAt, Date.now()].map((at) => saoPauloLocal(new Date(at + 3_600_000)))).toContain(defaultWhen);

  await dialog.getByRole("combobox", { name: "Contato" }).fill(customer.name.slice(0, 5));
  await page.getByRole("option", { name: new RegExp(customer.name) }).click();
  await dialog.getByTestId("schedule-body").fill("Olá {{firstName}}, lembrete: sua consulta é amanhã às 9h.");
  // The next minute on the company's clock that is at least 20 s away.
  const sendAt = nextMinuteAtLeast20sAway();
  await when.fill(saoPauloLocal(sendAt));
  await dialog.getByRole("button", { name: "Agendar" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Agendamento salvo com sucesso!")).toBeVisible();

  const row = page.getByTestId("schedule-row").filter({ hasText: customer.name });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Olá {{firstName}}, lembre…");
  const shown = `${saoPauloLocal(sendAt).slice(8, 10)}/${saoPauloLocal(sendAt).slice(5, 7)}/${saoPauloLocal(sendAt).slice(0, 4)} ${saoPauloLocal(sendAt).slice(11)}:00`;
  await expect(row).toContainText(shown);
  await expect(row.getByTestId("schedule-status")).toHaveText("Pendente");

  // At the minute: the phone receives it once, variables filled; the page updates without a reload.
  const expected = `Olá Maria, lembrete: sua consulta é amanhã às 9h.`;
  await expect(phoneLog.locator('[data-testid="simulator-message"][data-direction="in"]').filter({ hasText: expected })).toHaveCount(1, {
    timeout: 120_000,
  });
  await expect(row.getByTestId("schedule-status")).toHaveText("Enviada", { timeout: 15_000 });
  expect(Date.now()).toBeGreaterThanOrEqual(sendAt.getTime());

  // Once sent the dialog is read-only: no save button.
  await row.getByRole("button", { name: `Ver agendamento de ${customer.name}` }).click();
  const sent = page.getByRole("dialog", { name: "Mensagem enviada" });
  await expect(sent.getByRole("button", { name: "Salvar" })).toHaveCount(0);
  await sent.getByRole("button", { name: "Fechar" }).click();

  // The ticket's options menu opens the dialog with the contact filled in.
  await page.goto("/tickets");
  await page.getByRole("tab", { name: /Atendendo/ }).click();
  await page.getByTestId("ticket-row").filter({ hasText: customer.name }).click();
  await page.getByRole("button", { name: "Opções do ticket" }).click();
  await page.getByRole("menuitem", { name: "Agendamento" }).click();
  const fromTicket = page.getByRole("dialog", { name: "Novo agendamento" });
  await expect(fromTicket.getByRole("combobox", { name: "Contato" })).toHaveValue(new RegExp(customer.name));
  await expect(fromTicket.getByRole("combobox", { name: "Contato" })).toBeDisabled();
  await phoneContext.close();
});
