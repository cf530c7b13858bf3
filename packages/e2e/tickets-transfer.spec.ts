import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";

/**
 * Issue 4: two browser contexts (an admin and an attendant of queue B) plus the customer's phone on
 * /simulator (the connection's secret link, no sign-in). The customer writes; the admin sees the pending
 * ticket appear live, accepts it and transfers it to queue B; the queue-B attendant sees it arrive live.
 */
const stamp = Date.now().toString(36);
const owner = { name: `Ótica ${stamp}`, email: `dono-${stamp}@otica.test`, password: "segredo-123" };
const attendant = { name: `Bruno ${stamp}`, email: `bruno-${stamp}@otica.test`, password: "senha-123" };
const customer = { number: "5511987650001", name: `Cliente ${stamp}` };
const queueA = { name: `Vendas ${stamp}`, color: "#2E7D32" };
const queueB = { name: `Suporte ${stamp}`, color: "#1565C0" };

let connectionId = 0;
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

async function login(browser: Browser, email: string, password: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Senha").fill(password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).not.toHaveURL(/\/login$/);
  return page;
}

test.beforeAll(async ({ request }) => {
  const plans = (await (await request.get("/api/plans/list")).json()) as { id: number; users: number }[];
  const plan = plans.reduce((a, b) => (b.users > a.users ? b : a));
  const signup = await request.post("/api/companies/cadastro", { data: { ...owner, phone: "", planId: plan.id } });
  expect(signup.status(), await signup.text()).toBe(201);
  // Everything the admin prepares through the API happens before its browser login (which ends this session).
  const token = (await (await request.post("/api/auth/login", { data: { email: owner.email, password: owner.password } })).json()).token as string;
  const a = await post(request, token, "/api/queue", queueA);
  const b = await post(request, token, "/api/queue", queueB);
  await post(request, token, "/api/users", { ...attendant, profile: "user", queueIds: [b.id] });
  // The connection serves queue A only: a customer's ticket goes straight to Vendas.
  const connection = await post(request, token, "/api/whatsapp", { name: "Simulador", channel: "simulator", isDefault: true, queueIds: [a.id] });
  connectionId = connection.id;
  const auth = { Authorization: `Bearer ${token}` };
  const state = await waitFor(
    async () =>
      (await (await request.get(`/api/simulator/${connectionId}`, { headers: auth })).json()) as { connection: { status: string; qrcode: string } },
    (s) => s.connection.status === "qrcode" && !!s.connection.qrcode,
  );
  await post(request, token, `/api/simulator/${connectionId}/scan`, { code: state.connection.qrcode });
  simulatorUrl = (await (await request.get(`/api/simulator/${connectionId}/link`, { headers: auth })).json()).url;
});

test("a customer writes on /simulator; the admin accepts and transfers the ticket to queue B; B's attendant sees it", async ({ browser }) => {
  const admin = await login(browser, owner.email, owner.password);
  await admin.goto("/tickets");
  await admin.getByRole("tab", { name: /Aguardando/ }).click();
  const adminPending = admin.getByRole("list", { name: "Aguardando" });

  const bruno = await login(browser, attendant.email, attendant.password);
  await bruno.goto("/tickets");
  await bruno.getByRole("tab", { name: /Aguardando/ }).click();
  const brunoPending = bruno.getByRole("list", { name: "Aguardando" });
  await admin.waitForTimeout(500); // socket handshakes

  // The customer, on the simulator's secret link (no sign-in), adds their phone and writes.
  const phoneContext = await browser.newContext();
  const phone = await phoneContext.newPage();
  await phone.goto(simulatorUrl);
  const addForm = phone.getByRole("form", { name: "Adicionar cliente" });
  await addForm.getByLabel("Número").fill(customer.number);
  await addForm.getByLabel("Nome (opcional)").fill(customer.name);
  await addForm.getByRole("button", { name: "Adicionar telefone" }).click();
  const chat = phone.getByRole("region", { name: `Conversa de ${customer.name}` });
  await chat.getByRole("textbox", { name: "Mensagem do cliente" }).fill("Meus óculos quebraram, vocês consertam?");
  await chat.getByRole("textbox", { name: "Mensagem do cliente" }).press("Enter");
  await expect(chat.getByRole("log").getByText("Meus óculos quebraram, vocês consertam?")).toBeVisible();

  // The admin sees it live in Aguardando, in queue A; Bruno (queue B) does not.
  const row = adminPending.getByTestId("ticket-row").filter({ hasText: customer.name });
  await expect(row).toBeVisible();
  await expect(row).toContainText(queueA.name);
  await expect(brunoPending.getByText(customer.name)).toHaveCount(0);

  // Accept, then transfer to queue B without a user: back to pending, in B.
  await row.getByRole("button", { name: "Aceitar" }).click();
  await expect(admin).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
  await expect(admin.getByRole("log", { name: "Mensagens" }).getByText("Meus óculos quebraram, vocês consertam?")).toBeVisible();
  const header = admin.getByRole("region", { name: `Atendimento de ${customer.name}` });
  await header.getByRole("button", { name: "Opções do ticket" }).click();
  await admin.getByRole("menuitem", { name: "Transferir" }).click();
  const transfer = admin.getByRole("dialog", { name: "Transferir Ticket" });
  await transfer.getByRole("combobox", { name: "Fila" }).click();
  await admin.getByRole("option", { name: queueB.name }).click();
  await transfer.getByRole("button", { name: "Transferir" }).click();
  await expect(transfer).toBeHidden();
  await expect(admin).toHaveURL(/\/tickets$/);

  // Bruno sees the ticket arrive live in his Aguardando list, in queue B, and can accept it.
  const brunoRow = brunoPending.getByTestId("ticket-row").filter({ hasText: customer.name });
  await expect(brunoRow).toBeVisible();
  await expect(brunoRow).toContainText(queueB.name);
  await brunoRow.getByRole("button", { name: "Aceitar" }).click();
  await expect(bruno).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
  await expect(bruno.getByRole("log", { name: "Mensagens" }).getByText("Meus óculos quebraram, vocês consertam?")).toBeVisible();

  // Bruno answers; the customer's phone shows the reply.
  const composer = bruno.getByRole("textbox", { name: "Mensagem" });
  await composer.fill("Consertamos sim! Pode trazer.");
  await composer.press("Enter");
  await expect(chat.getByRole("log").getByText(/Consertamos sim! Pode trazer\./)).toBeVisible();

  await phoneContext.close();
  await admin.context().close();
  await bruno.context().close();
});
