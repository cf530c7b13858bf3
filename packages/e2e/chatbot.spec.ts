import { expect, test, type Locator } from "@playwright/test";
import { openCustomerPhone } from "./support/phone";
import { logIn, newStamp, pairSimulator, post, signUpAndLogIn, simulatorLink } from "./support/world";

/**
 * Issue 7: the admin builds a queue with a two-level option tree (through the API) and links it, with a
 * second queue, to the connection, so the bot shows the queue menu. A customer on /simulator walks the
 * menu and the tree (an invalid answer and a step back included) and lands in the right queue, where that
 * queue's attendant sees the ticket; the other queue's attendant does not.
 */
const stamp = newStamp();
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

test.beforeAll(async ({ request }) => {
  const token = await signUpAndLogIn(request, owner);

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
  const connectionId = await pairSimulator(request, token, { greetingMessage: GREETING, queueIds: [vendas.id, suporte.id] });
  simulatorUrl = (await simulatorLink(request, token, connectionId)).url;
});

test("a customer walks the queue menu and the option tree on /simulator and lands in Suporte", async ({ browser }) => {
  const { context: phoneContext, fromCompany, input } = await openCustomerPhone(browser, simulatorUrl, customer);
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
  await logIn(sofiaPage, support);
  await sofiaPage.goto("/tickets");
  await sofiaPage.getByRole("tab", { name: /Aguardando/ }).click();
  const row = sofiaPage.getByRole("list", { name: "Aguardando" }).getByTestId("ticket-row").filter({ hasText: customer.name });
  await expect(row).toBeVisible();
  await expect(row).toContainText(supportQueue);
  await row.getByRole("button", { name: "Aceitar" }).click();
  await expect(sofiaPage.getByRole("log", { name: "Mensagens" }).getByText(LEAF_MESSAGE)).toBeVisible();

  const vitor = await browser.newContext();
  const vitorPage = await vitor.newPage();
  await logIn(vitorPage, sales);
  await vitorPage.goto("/tickets");
  await vitorPage.getByRole("tab", { name: /Aguardando/ }).click();
  await expect(vitorPage.getByText("Nenhum atendimento aguardando")).toBeVisible();
  await expect(vitorPage.getByText(customer.name)).toHaveCount(0);

  await Promise.all([phoneContext.close(), sofia.close(), vitor.close()]);
});
