import { expect, test, type APIRequestContext } from "@playwright/test";

/**
 * Issue 19: an admin opens /messages-api, reveals the connection's token (the one the server holds), sends a
 * test text through POST /api/messages/send with it, and the customer's phone on /simulator receives it.
 */
const stamp = Date.now().toString(36);
const owner = { name: `Loja API ${stamp}`, email: `api-${stamp}@loja.test`, password: "segredo-123" };
const suffix = `6${String(Date.now() % 10_000_000).padStart(7, "5")}`.replace(/0000$/, "4321");
const customer = { name: `João ${stamp}`, number: `55119${suffix}` };

let simulatorUrl = "";
let connectionToken = "";

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
  connectionToken = (await (await request.get(`/api/whatsapp/${connection.id}`, { headers: auth })).json()).token;
  simulatorUrl = (await (await request.get(`/api/simulator/${connection.id}/link`, { headers: auth })).json()).url;
});

test("the admin reveals the token, sends a test text through the send API, and the customer's phone receives it", async ({ browser, page }) => {
  test.setTimeout(120_000);
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
  await page.goto("/messages-api");
  await expect(page.getByRole("heading", { name: "API de mensagens" })).toBeVisible();

  // Hidden until revealed; then the very token the server holds, also in the curl example with this origin.
  const tokenField = page.getByRole("textbox", { name: "Token da conexão" });
  await expect(tokenField).toHaveValue("•".repeat(24));
  await page.getByRole("button", { name: "Mostrar token" }).click();
  await expect(tokenField).toHaveValue(connectionToken);
  const origin = new URL(page.url()).origin;
  await expect(page.locator("pre").first()).toContainText(`curl -X POST '${origin}/api/messages/send'`);
  await expect(page.locator("pre").first()).toContainText(`Authorization: Bearer ${connectionToken}`);

  const form = page.getByRole("form", { name: "Testar envio de texto" });
  await form.getByRole("textbox", { name: /Número/ }).fill(customer.number);
  await form.getByRole("textbox", { name: /Mensagem/ }).fill(`Pedido ${stamp} confirmado pela API`);
  await form.getByRole("button", { name: "Enviar texto" }).click();
  await expect(form.getByText(/Mensagem enviada \(atendimento #\d+\)\./)).toBeVisible();

  await expect(
    phoneLog.locator('[data-testid="simulator-message"][data-direction="in"]').filter({ hasText: `Pedido ${stamp} confirmado pela API` }),
  ).toHaveCount(1);
  await phoneContext.close();
});
