import { expect, test, type APIRequestContext } from "@playwright/test";

/**
 * Issue 5: a customer on /simulator sends a text, an image and a location; the attendant replies with a
 * quoted reply, an attachment and a quick message; the customer sees them; the attendant deletes one and
 * it is shown as deleted on both sides.
 */
const stamp = Date.now().toString(36);
const owner = { name: `Gráfica ${stamp}`, email: `dono-${stamp}@grafica.test`, password: "segredo-123" };
const attendant = { name: `Carla ${stamp}`, email: `carla-${stamp}@grafica.test`, password: "senha-123" };
const customer = { number: "5511987650002", name: `Cliente ${stamp}` };
const quick = { shortcode: `orc${stamp}`, message: "Nosso orçamento vale por 7 dias úteis." };
/** A real 1×1 PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
const PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
);

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

test.beforeAll(async ({ request }) => {
  const plans = (await (await request.get("/api/plans/list")).json()) as { id: number; users: number }[];
  const plan = plans.reduce((a, b) => (b.users > a.users ? b : a));
  const signup = await request.post("/api/companies/cadastro", { data: { ...owner, phone: "", planId: plan.id } });
  expect(signup.status(), await signup.text()).toBe(201);
  const token = (await (await request.post("/api/auth/login", { data: { email: owner.email, password: owner.password } })).json()).token as string;
  await post(request, token, "/api/users", { ...attendant, profile: "user", queueIds: [] });
  await post(request, token, "/api/quick-messages", quick);
  const connection = await post(request, token, "/api/whatsapp", { name: "Simulador", channel: "simulator", isDefault: true });
  const auth = { Authorization: `Bearer ${token}` };
  const state = await waitFor(
    async () =>
      (await (await request.get(`/api/simulator/${connection.id}`, { headers: auth })).json()) as { connection: { status: string; qrcode: string } },
    (s) => s.connection.status === "qrcode" && !!s.connection.qrcode,
  );
  await post(request, token, `/api/simulator/${connection.id}/scan`, { code: state.connection.qrcode });
  simulatorUrl = (await (await request.get(`/api/simulator/${connection.id}/link`, { headers: auth })).json()).url;
});

test("text, image and location in; quoted reply, attachment and quick message out; a deletion seen on both sides", async ({ browser, page }) => {
  // The customer's phone: the secret link, in its own browser context.
  const phoneContext = await browser.newContext();
  const phone = await phoneContext.newPage();
  await phone.goto(simulatorUrl);
  const addForm = phone.getByRole("form", { name: "Adicionar cliente" });
  await addForm.getByLabel("Número").fill(customer.number);
  await addForm.getByLabel("Nome (opcional)").fill(customer.name);
  await addForm.getByRole("button", { name: "Adicionar telefone" }).click();
  const chat = phone.getByRole("region", { name: `Conversa de ${customer.name}` });
  const phoneLog = chat.getByRole("log", { name: "Mensagens do telefone" });
  const input = chat.getByRole("textbox", { name: "Mensagem do cliente" });

  // Text.
  await input.fill("Oi, quero um orçamento de cartões de visita");
  await input.press("Enter");
  await expect(phoneLog.getByText("Oi, quero um orçamento de cartões de visita")).toBeVisible();
  // Image (a real PNG from the computer), with a caption.
  await chat.getByTestId("simulator-file-input").setInputFiles({ name: "modelo.png", mimeType: "image/png", buffer: PNG });
  const attachment = phone.getByRole("dialog", { name: "Enviar Imagem" });
  await attachment.getByLabel("Legenda (opcional)").fill("Este é o modelo");
  await attachment.getByRole("button", { name: "Enviar" }).click();
  await expect(attachment).toBeHidden();
  await expect(phoneLog.locator('[data-testid="simulator-message"][data-kind="image"]')).toContainText("Este é o modelo");
  // Location.
  await chat.getByRole("button", { name: "Enviar localização" }).click();
  const location = phone.getByRole("dialog", { name: "Enviar localização" });
  await location.getByLabel("Descrição (opcional)").fill("Minha loja");
  await location.getByRole("button", { name: "Enviar" }).click();
  await expect(location).toBeHidden();
  await expect(phoneLog.locator('[data-testid="simulator-message"][data-kind="location"]')).toContainText("Minha loja");

  // The attendant accepts the ticket and sees the three messages.
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(attendant.email);
  await page.getByLabel("Senha").fill(attendant.password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).not.toHaveURL(/\/login$/);
  await page.goto("/tickets");
  await page.getByRole("tab", { name: /Aguardando/ }).click();
  const row = page.getByRole("list", { name: "Aguardando" }).getByTestId("ticket-row").filter({ hasText: customer.name });
  await expect(row.getByTestId("ticket-last-message")).toHaveText("Localização");
  await row.getByRole("button", { name: "Aceitar" }).click();
  await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
  const log = page.getByRole("log", { name: "Mensagens" });
  const theirs = log.locator('[data-testid="message"][data-from-me="false"]');
  await expect(theirs.filter({ hasText: "Oi, quero um orçamento de cartões de visita" })).toBeVisible();
  await expect(theirs.filter({ hasText: "Este é o modelo" }).getByRole("img")).toBeVisible();
  await expect(theirs.filter({ hasText: "Minha loja" }).getByRole("link", { name: "Visualizar no mapa" })).toBeVisible();

  // A quoted reply to the first message.
  await theirs.filter({ hasText: "Oi, quero um orçamento de cartões de visita" }).getByRole("button", { name: "Opções da mensagem" }).click();
  await page.getByRole("menuitem", { name: "Responder" }).click();
  await expect(page.getByTestId("reply-preview")).toContainText("Oi, quero um orçamento");
  const composer = page.getByRole("textbox", { name: "Mensagem" });
  await composer.fill("Claro! Quantas unidades?");
  await composer.press("Enter");
  const mine = log.locator('[data-testid="message"][data-from-me="true"]');
  await expect(mine.filter({ hasText: "Claro! Quantas unidades?" }).getByTestId("quoted-message")).toContainText("Oi, quero um orçamento");

  // An attachment.
  await page.getByTestId("composer-file-input").setInputFiles({ name: "tabela-de-precos.pdf", mimeType: "application/pdf", buffer: PDF });
  const preview = page.getByRole("dialog", { name: "Enviar 1 arquivo" });
  await preview.getByRole("button", { name: "Enviar" }).click();
  await expect(preview).toBeHidden();
  await expect(mine.getByRole("button", { name: /Baixar tabela-de-precos\.pdf/ })).toBeVisible();

  // A quick message picked from the '/' suggestions.
  await composer.fill(`/${quick.shortcode.slice(0, 5)}`);
  const suggestions = page.getByRole("listbox", { name: "Respostas rápidas" });
  await suggestions.getByRole("option", { name: new RegExp(quick.shortcode) }).click();
  await expect(composer).toHaveValue(quick.message);
  await composer.press("Enter");
  await expect(mine.filter({ hasText: quick.message })).toBeVisible();

  // The customer's phone shows all three: the quote, the document and the quick message.
  const fromCompany = phoneLog.locator('[data-testid="simulator-message"][data-direction="in"]');
  await expect(fromCompany.filter({ hasText: "Claro! Quantas unidades?" }).getByTestId("quoted-message")).toContainText("Oi, quero um orçamento");
  await expect(fromCompany.filter({ has: phone.getByRole("button", { name: /Baixar tabela-de-precos\.pdf/ }) })).toHaveCount(1);
  const quickOnPhone = fromCompany.filter({ hasText: quick.message });
  await expect(quickOnPhone).toBeVisible();

  // The attendant deletes the quick message: marked deleted on both sides.
  await mine.filter({ hasText: quick.message }).getByRole("button", { name: "Opções da mensagem" }).click();
  await page.getByRole("menuitem", { name: "Deletar" }).click();
  await page.getByRole("dialog", { name: "Apagar mensagem?" }).getByRole("button", { name: "Excluir" }).click();
  await expect(mine.filter({ hasText: quick.message })).toHaveCount(0);
  await expect(mine.filter({ hasText: "Esta mensagem foi apagada" })).toHaveCount(1);
  await expect(fromCompany.filter({ hasText: quick.message })).toHaveCount(0);
  await expect(phoneLog.locator('[data-testid="simulator-message"][data-direction="in"][data-deleted="true"]')).toContainText(
    "Esta mensagem foi apagada pela empresa",
  );

  await phoneContext.close();
});
