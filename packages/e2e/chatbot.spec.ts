import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";

/**
 * Issue 7: the admin builds a queue with a two-level option tree (through the API) and links it, with a
 * second queue, to the connection, so the bot shows the queue menu. A customer on /simulator walks the
 * menu and the tree (an invalid answer and a step back included) and lands in the right queue, where that
 * queue's attendant sees the ticket; the other queue's attendant does not.
 */
const stamp = Date.now().toString(36);
const owner = { name: `Livraria ${stamp}`, email: `dono-${stamp}@livraria.test`, password: "segredo-123" };
const support = { name: `Sofia ${stamp}`, email: `sofia-${stamp}@livraria.test`, password: "senha-123" };
const sales = { name: `Vitor ${stamp}`, email: `vitor-${stamp}@livraria.test`, password: "senha-123" };
const customer = { number: "5511987650003", name: `Cliente ${stamp}` };
const GREETING = "Olá! Bem-vindo à Livraria. Escolha um setor:";
const SUPPORT_GREETING = "Suporte: como podemos ajudar?";
const FINANCE_MESSAGE = "Assuntos financeiros:";
const LEAF_MESSAGE = "Certo! Um atendente do financeiro já vai falar com você.";

let simulatorUrl = "";
let supportQueue = "";

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

async function login(page: Page, who: { email: string; password: string }) {
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(who.email);
  await page.getByLabel("Senha").fill(who.password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).not.toHaveURL(/\/login$/);
}

test.beforeAll(async ({ request }) => {
  const plans = (await (await request.get("/api/plans/list")).json()) as { id: number; users: number }[];
  const plan = plans.reduce((a, b) => (b.users > a.users ? b : a));
  const signup = await request.post("/api/companies/cadastro", { data: { ...owner, phone: "", planId: plan.id } });
  expect(signup.status(), await signup.text()).toBe(201);
  const token = (await (await request.post("/api/auth/login", { data: { email: owner.email, password: owner.password } })).json()).token as string;

  // Two queues; Suporte has a two-level option tree.
  const vendas = await post(request, token, "/api/queue", {
    name: `Vendas ${stamp}`,
    color: "#2E7D32",
    greetingMessage: "Vendas: um vendedor já vem.",
  });
  const suporte = await post(request, token, "/api/queue", { name: `Suporte ${stamp}`, color: "#1565C0", greetingMessage: SUPPORT_GREETING });
  supportQueue = suporte.name;
  const finance = await post(request, token, "/api/queue-options", { queueId: suporte.id, title: "Financeiro", message: FINANCE_MESSAGE, option: 1 });
  await post(request, token, "/api/queue-options", { queueId: suporte.id, parentId: finance.id, title: "Boletos", message: LEAF_MESSAGE, option: 1 });
  await post(request, token, "/api/queue-options", {
    queueId: suporte.id,
    parentId: finance.id,
    title: "Pix",
    message: "Pix: envie o comprovante.",
    option: 2,
  });
  await post(request, token, "/api/queue-options", { queueId: suporte.id, title: "Técnico", message: "Um técnico vai te atender.", option: 2 });
  await post(request, token, "/api/users", { ...support, profile: "user", queueIds: [suporte.id] });
  await post(request, token, "/api/users", { ...sales, profile: "user", queueIds: [vendas.id] });

  // The connection serves both queues (so the bot shows the menu after the greeting).
  const connection = await post(request, token, "/api/whatsapp", {
    name: "Simulador",
    channel: "simulator",
    isDefault: true,
    greetingMessage: GREETING,
    queueIds: [vendas.id, suporte.id],
  });
  const auth = { Authorization: `Bearer ${token}` };
  const state = await waitFor(
    async () =>
      (await (await request.get(`/api/simulator/${connection.id}`, { headers: auth })).json()) as { connection: { status: string; qrcode: string } },
    (s) => s.connection.status === "qrcode" && !!s.connection.qrcode,
  );
  await post(request, token, `/api/simulator/${connection.id}/scan`, { code: state.connection.qrcode });
  simulatorUrl = (await (await request.get(`/api/simulator/${connection.id}/link`, { headers: auth })).json()).url;
});

test("a customer walks the queue menu and the option tree on /simulator and lands in Suporte", async ({ browser }) => {
  const phoneContext = await browser.newContext();
  const phone = await phoneContext.newPage();
  await phone.goto(simulatorUrl);
  const addForm = phone.getByRole("form", { name: "Adicionar cliente" });
  await addForm.getByLabel("Número").fill(customer.number);
  await addForm.getByLabel("Nome (opcional)").fill(customer.name);
  await addForm.getByRole("button", { name: "Adicionar telefone" }).click();
  const chat = phone.getByRole("region", { name: `Conversa de ${customer.name}` });
  const log = chat.getByRole("log", { name: "Mensagens do telefone" });
  const fromCompany = log.locator('[data-testid="simulator-message"][data-direction="in"]');
  const input = chat.getByRole("textbox", { name: "Mensagem do cliente" });
  const say = async (text: string) => {
    await input.fill(text);
    await input.press("Enter");
    await expect(input).toHaveValue("");
  };
  const expectCount = (locator: Locator, count: number) => expect(locator).toHaveCount(count, { timeout: 15_000 });

  // First message: the connection's greeting and the numbered queue menu.
  await say("Oi");
  await expectCount(fromCompany.filter({ hasText: GREETING }), 1);
  await expect(fromCompany.filter({ hasText: GREETING })).toContainText(`[ 1 ] - Vendas ${stamp}`);
  await expect(fromCompany.filter({ hasText: GREETING })).toContainText(`[ 2 ] - Suporte ${stamp}`);

  // 2 → Suporte: its greeting and the root options (and the way back to the main menu).
  await say("2");
  const supportMenu = fromCompany.filter({ hasText: SUPPORT_GREETING });
  await expectCount(supportMenu, 1);
  await expect(supportMenu).toContainText("[ 1 ] - Financeiro");
  await expect(supportMenu).toContainText("[ 2 ] - Técnico");
  await expect(supportMenu).toContainText("Menu inicial");

  // An invalid answer: a clear retry message and the same level again.
  await say("7");
  await expectCount(fromCompany.filter({ hasText: "Opção inválida" }), 1);

  // 1 → Financeiro (a node with children), then 0 → back one level, then 1 again.
  await say("1");
  await expectCount(fromCompany.filter({ hasText: FINANCE_MESSAGE }), 1);
  await expect(fromCompany.filter({ hasText: FINANCE_MESSAGE })).toContainText("[ 1 ] - Boletos");
  await expect(fromCompany.filter({ hasText: FINANCE_MESSAGE })).toContainText("Menu anterior");
  const rootMenus = await fromCompany.filter({ hasText: "[ 2 ] - Técnico" }).count();
  await say("0");
  await expectCount(fromCompany.filter({ hasText: "[ 2 ] - Técnico" }), rootMenus + 1);
  await say("1");
  await expectCount(fromCompany.filter({ hasText: FINANCE_MESSAGE }), 2);

  // 1 → Boletos, a leaf: its message, and the bot hands the ticket to Suporte's attendants.
  await say("1");
  await expectCount(fromCompany.filter({ hasText: LEAF_MESSAGE }), 1);

  // Sofia (Suporte) sees the ticket waiting in her queue; Vitor (Vendas) does not.
  const sofia = await browser.newContext();
  const sofiaPage = await sofia.newPage();
  await login(sofiaPage, support);
  await sofiaPage.goto("/tickets");
  await sofiaPage.getByRole("tab", { name: /Aguardando/ }).click();
  const row = sofiaPage.getByRole("list", { name: "Aguardando" }).getByTestId("ticket-row").filter({ hasText: customer.name });
  await expect(row).toBeVisible();
  await expect(row).toContainText(supportQueue);
  await row.getByRole("button", { name: "Aceitar" }).click();
  await expect(sofiaPage.getByRole("log", { name: "Mensagens" }).getByText(LEAF_MESSAGE)).toBeVisible();

  const vitor = await browser.newContext();
  const vitorPage = await vitor.newPage();
  await login(vitorPage, sales);
  await vitorPage.goto("/tickets");
  await vitorPage.getByRole("tab", { name: /Aguardando/ }).click();
  await expect(vitorPage.getByText("Nenhum atendimento aguardando")).toBeVisible();
  await expect(vitorPage.getByText(customer.name)).toHaveCount(0);

  await Promise.all([phoneContext.close(), sofia.close(), vitor.close()]);
});
