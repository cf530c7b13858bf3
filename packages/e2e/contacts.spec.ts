import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { bearer, logIn, newStamp, pairSimulator, signUpAndLogIn } from "./support/world";

/**
 * Contacts, tags and quick messages (issue 6): create a contact, start a ticket from the contacts page,
 * tag the ticket from its header and use a quick message in the composer. The company gets a paired
 * simulator connection (so numbers are checked on "WhatsApp" and the address book can be imported).
 */
test.describe.configure({ mode: "serial" });

const stamp = newStamp();
const owner = { name: `Floricultura ${stamp}`, email: `dono-${stamp}@flores.test`, password: "segredo-123" };
/** A fresh Brazilian mobile per run (the simulator accepts 10–15 digits not ending in 0000). */
const suffix = `8${String(Date.now() % 10_000_000).padStart(7, "1")}`.replace(/0000$/, "1234");
const customer = { name: `Cliente ${stamp}`, number: `55119${suffix}`, typed: `(11) 9${suffix.slice(0, 4)}-${suffix.slice(4)}` };
const addressBookPhone = { number: `55219${suffix}`, name: `Agenda ${stamp}` };
const queueName = `Vendas ${stamp}`;
const tagName = `VIP ${stamp}`;
const quick = { shortcode: `saudacao${stamp}`, message: `Olá! Obrigado por falar com a Floricultura ${stamp}.` };

/** Where the ticket opened from the contacts page lives (/tickets/{uuid}). */
let ticketPath = "";

const login = (page: Page) => logIn(page, owner, { landsOn: /\/$/ });

test.beforeAll(async ({ request }) => {
  const token = await signUpAndLogIn(request, owner, "first");
  const connectionId = await pairSimulator(request, token);
  const queue = await request.post("/api/queue", { headers: bearer(token), data: { name: queueName, color: "#1565C0" } });
  expect(queue.status(), await queue.text()).toBe(201);
  // One entry in the simulated phone's address book, for the import.
  const phone = await request.post(`/api/simulator/${connectionId}/phones`, { headers: bearer(token), data: addressBookPhone });
  expect(phone.status(), await phone.text()).toBe(201);
});

test("contacts page: create a contact, import the address book, export CSV and start a ticket", async ({ page }) => {
  await login(page);
  await page.getByRole("navigation", { name: "Menu principal" }).getByRole("link", { name: "Contatos" }).click();
  await expect(page).toHaveURL(/\/contacts$/);
  const table = page.getByRole("table", { name: "Contatos" });
  await expect(page.getByText("Nenhum contato encontrado")).toBeVisible();

  // Create a contact with an extra info row; the number is typed with a mask and stored normalized.
  await page.getByRole("button", { name: "Adicionar contato" }).click();
  const modal = page.getByRole("dialog", { name: "Adicionar contato" });
  await expect(modal.getByLabel("Nome", { exact: true })).toBeFocused();
  await modal.getByRole("button", { name: "Adicionar", exact: true }).click();
  await expect(modal.getByText("Obrigatório")).toHaveCount(2);
  await modal.getByLabel("Nome", { exact: true }).fill(customer.name);
  await modal.getByLabel("Número do WhatsApp").fill(customer.typed);
  await modal.getByLabel("E-mail").fill(`cliente-${stamp}@flores.test`);
  await modal.getByRole("button", { name: "Adicionar informação" }).click();
  await modal.getByLabel("Nome do campo").fill("Aniversário");
  await modal.getByLabel("Valor").fill("12/05");
  await modal.getByLabel("Valor").press("Enter");
  await expect(page.getByText("Contato salvo com sucesso.")).toBeVisible();
  await expect(modal).toBeHidden();
  const row = table.getByRole("row").filter({ hasText: customer.name });
  await expect(row).toBeVisible();
  await expect(row).toContainText(`+55 11 9${suffix.slice(0, 4)} ${suffix.slice(4)}`);

  // The same number again (another mask) is refused with the spec's text.
  await page.getByRole("button", { name: "Adicionar contato" }).click();
  await modal.getByLabel("Nome", { exact: true }).fill("Duplicado");
  await modal.getByLabel("Número do WhatsApp").fill(`+${customer.number}`);
  await modal.getByLabel("Número do WhatsApp").press("Enter");
  await expect(modal.getByText("Este número já está cadastrado para outro contato")).toBeVisible();
  await modal.getByRole("button", { name: "Cancelar" }).click();
  await expect(modal).toBeHidden();

  // The extra info row was saved (the edit modal loads it).
  await page.getByRole("button", { name: `Editar ${customer.name}` }).click();
  const edit = page.getByRole("dialog", { name: "Editar contato" });
  await expect(edit.getByLabel("Nome do campo")).toHaveValue("Aniversário");
  await edit.getByRole("button", { name: "Cancelar" }).click();

  // Import the simulated phone's address book, after confirmation.
  await page.getByRole("button", { name: "Importar contatos" }).click();
  await page.getByRole("dialog", { name: "Importar contatos" }).getByRole("button", { name: "Importar" }).click();
  const result = page.getByRole("dialog", { name: "Importação concluída" });
  await expect(result.getByTestId("import-created")).toHaveText("1");
  await result.getByRole("button", { name: "Fechar" }).click();
  await expect(table.getByRole("row").filter({ hasText: addressBookPhone.name })).toBeVisible();

  // Search (500 ms debounce) by name.
  await page.getByRole("searchbox", { name: "Pesquisar" }).fill(`agenda ${stamp}`);
  await expect(table.getByRole("row").filter({ hasText: customer.name })).toHaveCount(0);
  await expect(table.getByRole("row").filter({ hasText: addressBookPhone.name })).toBeVisible();
  await page.getByRole("searchbox", { name: "Pesquisar" }).fill("");
  await expect(row).toBeVisible();

  // Export CSV: ';' separated name, number, email, with a BOM, as contatos.csv.
  const downloadPromise = page.waitForEvent("download");
  await page.getByRole("button", { name: "Exportar CSV" }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe("contatos.csv");
  const csv = readFileSync(await download.path(), "utf8");
  const lines = csv.split("\r\n");
  expect(lines[0]).toBe("\uFEFFname;number;email");
  expect(lines).toContain(`${customer.name};55 11 9${suffix.slice(0, 4)} ${suffix.slice(4)};cliente-${stamp}@flores.test`);
  expect(lines.some((l) => l.startsWith(`${addressBookPhone.name};55 21 9`))).toBeTruthy();
  await expect(page.getByText("2 contato(s) exportado(s).")).toBeVisible();

  // Start a ticket from the contacts page: pick the queue, land on the open ticket.
  await row.getByRole("button", { name: `Iniciar atendimento com ${customer.name}` }).click();
  const start = page.getByRole("dialog", { name: "Iniciar atendimento" });
  await start.getByRole("combobox", { name: "Fila" }).click();
  await page.getByRole("option", { name: queueName }).click();
  await start.getByRole("button", { name: "Iniciar" }).click();
  await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
  ticketPath = new URL(page.url()).pathname;
  const header = page.getByRole("region", { name: `Atendimento de ${customer.name}` });
  await expect(header).toBeVisible();
  await expect(header.getByTestId("ticket-status")).toContainText(queueName);

  // A second start for the same contact is refused (the ticket is open).
  await page.goto("/contacts");
  await page.getByRole("button", { name: `Iniciar atendimento com ${customer.name}` }).click();
  await page.getByRole("dialog", { name: "Iniciar atendimento" }).getByRole("button", { name: "Iniciar" }).click();
  await expect(
    page.getByRole("dialog", { name: "Iniciar atendimento" }).getByText("Já existe um atendimento aberto para este contato."),
  ).toBeVisible();
});

test("tags and quick messages: create them, tag the ticket from its header and use the quick message in the composer", async ({ page }) => {
  expect(ticketPath, "the previous test opens the ticket").toMatch(/^\/tickets\//);
  await login(page);
  const nav = page.getByRole("navigation", { name: "Menu principal" });

  // Tags page: add a tag with a palette colour and the Kanban switch (admin).
  await nav.getByRole("link", { name: "Tags" }).click();
  await expect(page).toHaveURL(/\/tags$/);
  await page.getByRole("button", { name: "Adicionar tag" }).click();
  const tagModal = page.getByRole("dialog", { name: "Adicionar tag" });
  await tagModal.getByLabel("Nome").fill("VI");
  await tagModal.getByRole("button", { name: "Adicionar" }).click();
  await expect(tagModal.getByText("Mensagem muito curta")).toBeVisible();
  await tagModal.getByLabel("Nome").fill(tagName);
  await tagModal.getByRole("button", { name: "Cor #7B1FA2" }).click();
  await expect(tagModal.getByTestId("color-preview")).toContainText("#7B1FA2");
  await tagModal.getByRole("switch", { name: "Kanban" }).check();
  await tagModal.getByLabel("Nome").press("Enter");
  await expect(page.getByText("Tag adicionada com sucesso.")).toBeVisible();
  const tagRow = page.getByRole("table", { name: "Tags" }).getByRole("row").filter({ hasText: tagName });
  await expect(tagRow.getByTestId("tag-tickets-count")).toHaveText("0");

  // Quick messages page: add one.
  await nav.getByRole("link", { name: "Respostas rápidas" }).click();
  await expect(page).toHaveURL(/\/quick-messages$/);
  await page.getByRole("button", { name: "Adicionar resposta rápida" }).click();
  const quickModal = page.getByRole("dialog", { name: "Adicionar resposta rápida" });
  await quickModal.getByLabel("Atalho").fill(quick.shortcode);
  await quickModal.getByLabel("Mensagem").fill(quick.message);
  await quickModal.getByLabel("Atalho").press("Enter");
  await expect(page.getByText("Resposta rápida adicionada")).toBeVisible();
  await expect(
    page
      .getByRole("table", { name: "Respostas rápidas" })
      .getByRole("row")
      .filter({ hasText: `/${quick.shortcode}` }),
  ).toContainText(quick.message);

  // The ticket opened from the contacts page: tag it from its header.
  await page.goto(ticketPath);
  const header = page.getByRole("region", { name: `Atendimento de ${customer.name}` });
  await expect(header).toBeVisible();
  await header.getByRole("combobox", { name: "Tags do ticket" }).click();
  await page.getByRole("option", { name: tagName }).click();
  await expect(page.getByText("Ticket Tag Adicionado com Sucesso!")).toBeVisible();
  await expect(header.getByText(tagName, { exact: true })).toBeVisible();

  // The composer suggests the quick message after '/' and more than one character; picking it fills the text.
  const composer = page.getByRole("textbox", { name: "Mensagem" });
  await composer.fill(`/${quick.shortcode.slice(0, 6)}`);
  const suggestions = page.getByRole("listbox", { name: "Respostas rápidas" });
  await suggestions.getByRole("option", { name: new RegExp(`^/${quick.shortcode} - `) }).click();
  await expect(composer).toHaveValue(quick.message);
  await composer.press("Enter");
  await expect(composer).toHaveValue("");
  const log = page.getByRole("log", { name: "Mensagens" });
  await expect(log.locator('[data-testid="message"][data-from-me="true"]').filter({ hasText: quick.message })).toHaveCount(1);

  // The tag counts the ticket now.
  await page.goto("/tags");
  await expect(page.getByRole("table", { name: "Tags" }).getByRole("row").filter({ hasText: tagName }).getByTestId("tag-tickets-count")).toHaveText(
    "1",
  );
});
