import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { openCustomerPhone } from "./support/phone";
import {
  contactsSpreadsheet,
  importSpreadsheet,
  logIn,
  newStamp,
  nextMinuteAtLeast20sAway,
  pairSimulator,
  saoPauloLocal,
  signUpAndLogIn,
  simulatorLink,
} from "./support/world";

/**
 * Issue 17: the admin imports a spreadsheet of 20 contacts into a new list on /contact-lists, sets the campaign
 * intervals to 0 on /campaigns-config, creates a campaign on /campaigns scheduled for the next minute on the
 * simulator connection, and watches its report reach FINALIZADA with 20 of 20 delivered; one customer's
 * phone on /simulator receives the message once with {nome} filled in, and the CSV export has the 20 rows.
 */
const stamp = newStamp();
const owner = { name: `Loja ${stamp}`, email: `dono-${stamp}@loja.test`, password: "segredo-123" };
const listName = `Clientes ${stamp}`;
const campaignName = `Promo ${stamp}`;
/** 20 mobile numbers the simulator accepts (10–15 digits, not ending in 0000). */
const base = 70_000_000 + (Date.now() % 1_000_000) * 10;
const contacts = Array.from({ length: 20 }, (_, i) => ({
  name: `Cliente${i + 1} Silva`,
  number: `55119${base + i + 1}`,
  email: `c${i + 1}@loja.test`,
}));

let simulatorUrl = "";

test.beforeAll(async ({ request }) => {
  const token = await signUpAndLogIn(request, owner);
  simulatorUrl = (await simulatorLink(request, token, await pairSimulator(request, token))).url;
});

const spreadsheet = () => contactsSpreadsheet(contacts.map((c) => [c.name, c.number, c.email]));

test("a campaign to 20 imported contacts runs on the simulator and its report reaches FINALIZADA", async ({ browser, page }) => {
  test.setTimeout(240_000);
  // One customer's phone on /simulator, in its own browser context.
  const customer = contacts[0]!;
  const { context: phoneContext, log: phoneLog } = await openCustomerPhone(browser, simulatorUrl, customer);

  await logIn(page, owner);

  // The list, filled from the spreadsheet on its contacts page.
  await page.goto("/contact-lists");
  await page.getByRole("button", { name: "Adicionar lista" }).click();
  const listModal = page.getByRole("dialog", { name: "Nova lista de contatos" });
  await listModal.getByLabel("Nome").fill(listName);
  await listModal.getByRole("button", { name: "Adicionar" }).click();
  await expect(listModal).toBeHidden();
  await page
    .getByTestId("contact-list-row")
    .filter({ hasText: listName })
    .getByRole("button", { name: `Contatos de ${listName}` })
    .click();
  await expect(page).toHaveURL(/\/contact-lists\/\d+\/contacts$/);
  const result = await importSpreadsheet(page, await spreadsheet());
  await expect(result.getByText("20 contatos importados")).toBeVisible();
  await result.getByRole("button", { name: "Fechar" }).click();
  await expect(page.getByTestId("contact-list-item-row")).toHaveCount(20);
  await expect(page.getByRole("img", { name: "Número com WhatsApp" })).toHaveCount(20, { timeout: 20_000 });

  // Settings: every interval 0, so the 20 messages go out at once.
  await page.goto("/campaigns-config");
  await expect(page.getByRole("heading", { name: "Configurações de campanhas" })).toBeVisible();
  for (const label of ["Intervalo randômico de disparo", "Intervalo maior após", "Intervalo de disparo maior"]) {
    await page.getByRole("combobox", { name: label }).click();
    await page.getByRole("option", { name: "Sem intervalo" }).click();
    await expect(page.getByRole("combobox", { name: label })).toHaveText("Sem intervalo");
  }
  await page.getByRole("button", { name: "Salvar configurações" }).click();
  await expect(page.getByText("Configurações salvas")).toBeVisible();

  // The campaign, scheduled for the next minute that is at least 20 s away.
  await page.goto("/campaigns");
  await expect(page.getByRole("heading", { name: "Campanhas" })).toBeVisible();
  await page.getByRole("button", { name: "Nova campanha" }).click();
  const dialog = page.getByRole("dialog", { name: "Nova campanha" });
  await dialog.getByRole("textbox", { name: "Nome" }).fill(campaignName);
  const sendAt = nextMinuteAtLeast20sAway();
  await dialog.getByLabel(/Agendamento/).fill(saoPauloLocal(sendAt));
  await dialog.getByRole("combobox", { name: /Conexão/ }).click();
  await page.getByRole("option", { name: "Simulador" }).click();
  await dialog.getByRole("combobox", { name: /Lista de contatos/ }).click();
  await page.getByRole("option", { name: `${listName} (20 contatos)` }).click();
  await dialog.getByTestId("campaign-message1").fill("Olá {nome}! Promoção de hoje: 20% de desconto.");
  await dialog.getByRole("button", { name: "Adicionar" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Campanha criada com sucesso!")).toBeVisible();

  const row = page.getByTestId("campaign-row").filter({ hasText: campaignName });
  await expect(row.getByTestId("campaign-status")).toHaveText("Programada");
  await expect(row).toContainText(listName);
  await expect(row).toContainText("Simulador");

  // The report follows the run live and ends FINALIZADA with every contact delivered.
  await row.getByRole("button", { name: `Relatório da campanha ${campaignName}` }).click();
  await expect(page).toHaveURL(/\/campaign\/\d+\/report$/);
  await expect(page.getByTestId("card-valid-value")).toHaveText("20");
  await expect(page.getByTestId("report-status")).toHaveText("Finalizada", { timeout: 180_000 });
  await expect(page.getByTestId("report-delivered-of-valid")).toHaveText("20 de 20 entregues", { timeout: 15_000 });
  await expect(page.getByTestId("card-delivered-value")).toHaveText("20");
  await expect(page.getByRole("progressbar", { name: "Progresso da campanha" })).toHaveAttribute("aria-valuenow", "100");
  await expect(page.getByTestId("card-completion-value")).not.toHaveText("Não concluída");
  // One shipping row per contact, each delivered.
  await expect(page.getByTestId("shipping-row")).toHaveCount(20);
  await expect(page.getByTestId("shipping-row").filter({ hasText: "Entregue" })).toHaveCount(20);
  expect(Date.now()).toBeGreaterThanOrEqual(sendAt.getTime());

  // The customer received it exactly once, {nome} filled in.
  const expected = `Olá ${customer.name}! Promoção de hoje: 20% de desconto.`;
  await expect(phoneLog.locator('[data-testid="simulator-message"][data-direction="in"]').filter({ hasText: expected })).toHaveCount(1);

  // The CSV export has a header and one row per contact.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Exportar CSV" }).click()]);
  const csv = readFileSync((await download.path())!, "utf8").replace(/^\uFEFF/, "");
  const lines = csv.split(/\r?\n/).filter((l) => l.trim() !== "");
  expect(lines).toHaveLength(21);
  for (const c of contacts) expect(csv).toContain(c.number);

  // Back on the list the row is Finalizada too (live, no reload needed).
  await page.getByRole("link", { name: "Voltar" }).click();
  await expect(page.getByTestId("campaign-row").filter({ hasText: campaignName }).getByTestId("campaign-status")).toHaveText("Finalizada");
  await phoneContext.close();
});
