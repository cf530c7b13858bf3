import ExcelJS from "exceljs";
import { expect, test, type APIRequestContext } from "@playwright/test";

/**
 * Issue 17: an admin creates a contact list on /contact-lists, opens it and imports a spreadsheet generated
 * here (20 contacts and two bad rows); the result dialog names the refused rows by line, the 20 contacts are
 * listed, the list's count says 20, and the WhatsApp check through the company's simulator connection marks
 * them valid in the background.
 */
const stamp = Date.now().toString(36);
const owner = { name: `Loja ${stamp}`, email: `dono-${stamp}@loja.test`, password: "segredo-123" };
const listName = `Clientes ${stamp}`;
const contacts = Array.from({ length: 20 }, (_, i) => ({
  name: `Cliente ${String(i + 1).padStart(2, "0")}`,
  number: `55119${String(87_650_000 + i + 1)}`,
  email: `cliente${i + 1}@loja.test`,
}));

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function post(request: APIRequestContext, token: string, path: string, data: unknown) {
  const res = await request.post(path, { headers: { Authorization: `Bearer ${token}` }, data });
  expect(res.ok(), `${path}: ${await res.text()}`).toBeTruthy();
  return res.json();
}

/** The sheet as a person would make it: a header row in Portuguese, then the contacts. */
async function spreadsheet(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Contatos");
  sheet.addRow(["Nome", "Número", "E-mail"]);
  for (const c of contacts.slice(0, 10)) sheet.addRow([c.name, c.number, c.email]);
  sheet.addRow(["Sem telefone", "", ""]); // line 12
  for (const c of contacts.slice(10)) sheet.addRow([c.name, c.number, c.email]);
  sheet.addRow(["Email errado", "5511987659999", "errado@"]); // line 23
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

test.beforeAll(async ({ request }) => {
  const plans = (await (await request.get("/api/plans/list")).json()) as { id: number; users: number }[];
  const plan = plans.reduce((a, b) => (b.users > a.users ? b : a));
  const signup = await request.post("/api/companies/cadastro", { data: { ...owner, phone: "", planId: plan.id } });
  expect(signup.status(), await signup.text()).toBe(201);
  const token = (await (await request.post("/api/auth/login", { data: { email: owner.email, password: owner.password } })).json()).token as string;
  const auth = { Authorization: `Bearer ${token}` };
  const connection = await post(request, token, "/api/whatsapp", { name: "Simulador", channel: "simulator", isDefault: true });
  const state = await waitFor(
    async () =>
      (await (await request.get(`/api/simulator/${connection.id}`, { headers: auth })).json()) as { connection: { status: string; qrcode: string } },
    (s) => s.connection.status === "qrcode" && !!s.connection.qrcode,
  );
  await post(request, token, `/api/simulator/${connection.id}/scan`, { code: state.connection.qrcode });
});

test("create a list, import a sheet of 20 contacts and see them listed", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(owner.email);
  await page.getByLabel("Senha").fill(owner.password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).not.toHaveURL(/\/login$/);

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

  await page.getByTestId("spreadsheet-input").setInputFiles({
    name: "clientes.xlsx",
    mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    buffer: await spreadsheet(),
  });
  const result = page.getByRole("dialog", { name: "Importação da planilha" });
  await expect(result.getByText("20 contatos importados")).toBeVisible();
  await expect(result.getByText("2 linhas com erro")).toBeVisible();
  await expect(result.getByTestId("import-error-row")).toHaveText(["12Número em branco", "23Email inválidoerrado@"]);
  await result.getByRole("button", { name: "Fechar" }).click();
  await expect(result).toBeHidden();

  const rows = page.getByTestId("contact-list-item-row");
  await expect(rows).toHaveCount(20);
  for (const c of [contacts[0]!, contacts[9]!, contacts[19]!]) {
    const row = rows.filter({ hasText: c.name });
    await expect(row).toContainText(c.number);
    await expect(row).toContainText(c.email);
  }
  // The background check through the simulator connection marks every number valid.
  await expect(page.getByRole("img", { name: "Número com WhatsApp" })).toHaveCount(20, { timeout: 20_000 });

  await page.getByRole("button", { name: "Voltar" }).click();
  await expect(page).toHaveURL(/\/contact-lists$/);
  await expect(listRow.getByTestId("contact-list-count")).toHaveText("20");
});
