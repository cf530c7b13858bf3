import { expect, test, type APIRequestContext } from "@playwright/test";

/**
 * Issue 15: an attendant schedules a message one minute ahead on /schedules; the durable job sends it at
 * that time through the company's simulator connection and the customer's phone on /simulator receives it
 * (template variables filled), while the schedules page turns the row to 'Enviada' live.
 */
const stamp = Date.now().toString(36);
const owner = { name: `Clínica ${stamp}`, email: `dono-${stamp}@clinica.test`, password: "segredo-123" };
const suffix = `7${String(Date.now() % 10_000_000).padStart(7, "3")}`.replace(/0000$/, "4321");
const customer = { name: `Maria ${stamp}`, number: `55119${suffix}` };

let simulatorUrl = "";

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

/** "YYYY-MM-DDTHH:mm" of an instant on São Paulo's clock (the company's and the browser's time zone). */
function saoPauloLocal(at: Date): string {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: "America/Sao_Paulo",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get("year")}-${get("month")}-${get("day")}T${get("hour")}:${get("minute")}`;
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
  await post(request, token, "/api/contacts", { name: customer.name, number: customer.number });
  simulatorUrl = (await (await request.get(`/api/simulator/${connection.id}/link`, { headers: auth })).json()).url;
});

test("a message scheduled a minute ahead arrives on the customer's phone and the row turns 'Enviada'", async ({ browser, page }) => {
  test.setTimeout(180_000);
  // The customer's phone on /simulator, in its own browser context.
  const phoneContext = await browser.newContext();
  const phone = await phoneContext.newPage();
  await phone.goto(simulatorUrl);
  const addForm = phone.getByRole("form", { name: "Adicionar cliente" });
  await addForm.getByLabel("Número").fill(customer.number);
  await addForm.getByLabel("Nome (opcional)").fill(customer.name);
  await addForm.getByRole("button", { name: "Adicionar telefone" }).click();
  const phoneLog = phone.getByRole("region", { name: `Conversa de ${customer.name}` }).getByRole("log", { name: "Mensagens do telefone" });

  await page.goto("/login");
  await page.getByLabel("E-mail").fill(owner.email);
  await page.getByLabel("Senha").fill(owner.password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).not.toHaveURL(/\/login$/);
  await page.goto("/schedules");
  await expect(page.getByRole("heading", { name: "Agendamentos" })).toBeVisible();
  await page.getByRole("button", { name: "Novo agendamento" }).click();
  const dialog = page.getByRole("dialog", { name: "Novo agendamento" });
  // Spec §4: a new schedule starts one hour ahead.
  const when = dialog.getByLabel(/Data e hora de envio/);
  expect(await when.inputValue()).toBe(saoPauloLocal(new Date(Date.now() + 3_600_000)));

  await dialog.getByRole("combobox", { name: "Contato" }).fill(customer.name.slice(0, 5));
  await page.getByRole("option", { name: new RegExp(customer.name) }).click();
  await dialog.getByTestId("schedule-body").fill("Olá {{firstName}}, lembrete: sua consulta é amanhã às 9h.");
  // The next minute on the company's clock that is at least 20 s away.
  const sendAt = new Date(Math.ceil((Date.now() + 20_000) / 60_000) * 60_000);
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
