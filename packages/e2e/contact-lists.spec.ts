import { expect, test } from "@playwright/test";
import { contactsSpreadsheet, importSpreadsheet, logIn, newStamp, pairSimulator, signUpAndLogIn } from "./support/world";

/**
 * Issue 17: an admin creates a contact list on /contact-lists, opens it and imports a spreadsheet generated
 * here (20 contacts and two bad rows); the result dialog names the refused rows by line, the 20 contacts are
 * listed, the list's count says 20, and the WhatsApp check through the company's simulator connection marks
 * them valid in the background.
 */
const stamp = newStamp();
const owner = { name: `Loja ${stamp}`, email: `dono-${stamp}@loja.test`, password: "segredo-123" };
const listName = `Clientes ${stamp}`;
const contacts = Array.from({ length: 20 }, (_, i) => ({
  name: `Cliente ${String(i + 1).padStart(2, "0")}`,
  number: `55119${String(87_650_000 + i + 1)}`,
  email: `cliente${i + 1}@loja.test`,
}));

/** The 20 contacts with two bad rows among them, on the sheet's lines 12 and 23 (the header is line 1). */
function spreadsheet(): Promise<Buffer> {
  const row = (c: (typeof contacts)[number]): [string, string, string] => [c.name, c.number, c.email];
  return contactsSpreadsheet([
    ...contacts.slice(0, 10).map(row),
    ["Sem telefone", "", ""],
    ...contacts.slice(10).map(row),
    ["Email errado", "5511987659999", "errado@"],
  ]);
}

// The WhatsApp check of imported numbers goes through the company's connection.
test.beforeAll(async ({ request }) => {
  const token = await signUpAndLogIn(request, owner);
  await pairSimulator(request, token);
});

test("create a list, import a sheet of 20 contacts and see them listed", async ({ page }) => {
  test.setTimeout(120_000);
  await logIn(page, owner);

  await page.goto("/contact-lists");
  await expect(page.getByRole("heading", { name: "Listas de Contatos" })).toBeVisible();
  await page.getByRole("button", { name: "Adicionar lista" }).click();
  const modal = page.getByRole("dialog", { name: "Nova lista de contatos" });
  await modal.getByLabel("Nome").fill(listName);
  await modal.getByRole("button", { name: "Adicionar" }).click();
  await expect(modal).toBeHidden();
  const listRow = page.getByTestId("contact-list-row").filter({ hasText: listName });
  await expect(listRow.getByTestId("contact-list-count")).toHaveText("0");

  await listRow.getByRole("button", { name: `Contatos de ${listName}` }).click();
  await expect(page).toHaveURL(/\/contact-lists\/\d+\/contacts$/);
  await expect(page.getByRole("heading", { name: `Contatos da lista: ${listName}` })).toBeVisible();
  await expect(page.getByText("Nenhum contato nesta lista")).toBeVisible();

  const result = await importSpreadsheet(page, await spreadsheet());
  // The import runs on the job runner: on a loaded CI machine its pick-up alone can take several seconds.
  await expect(result.getByText("20 contatos importados")).toBeVisible({ timeout: 30_000 });
  await expect(result.getByText("2 linhas com erro")).toBeVisible();
  await expect(result.getByTestId("import-error-row")).toHaveText(["12Número em branco", "23Email inválidoerrado@"]);
  await result.getByRole("button", { name: "Fechar" }).click();
  await expect(result).toBeHidden();

  const rows = page.getByTestId("contact-list-item-row");
  await expect(rows).toHaveCount(20);
  for (const c of [contacts[0]!, contacts[9]!, contacts[19]!]) {
    const row = rows.filter({ hasText: c.name });
    // Shown in the international format (+55 11 …): compared digit by digit.
    await expect.poll(async () => ((await row.textContent()) ?? "").replace(/\D/g, "")).toContain(c.number);
    await expect(row).toContainText(c.email);
  }
  // The background check through the simulator connection marks every number valid.
  await expect(page.getByRole("img", { name: "Número com WhatsApp" })).toHaveCount(20, { timeout: 20_000 });

  await page.getByRole("button", { name: "Voltar" }).click();
  await expect(page).toHaveURL(/\/contact-lists$/);
  await expect(listRow.getByTestId("contact-list-count")).toHaveText("20");
});
