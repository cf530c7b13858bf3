import { expect, test } from "@playwright/test";
import { FakeGraph } from "../server/src/channels/cloudapi/fakeGraph";
import { acceptPendingTicket, logIn, newStamp, signUpCompany } from "./support/world";

/**
 * Issue 22: an admin connects a WhatsApp Cloud API number (against the fake Graph API the server under test is
 * pointed at, playwright.config.ts), a customer message arrives through the signed webhook, the attendant
 * replies inside the 24-hour window; when the window closes the composer refuses free text and offers the
 * approved templates, and one is sent with its parameter.
 */
const stamp = newStamp();
const owner = { name: `Ótica ${stamp}`, email: `dono-${stamp}@otica.test`, password: "segredo-123" };
const customer = { number: "5511987650022", name: `Marina ${stamp}` };
// Unique per run: the phone number id routes webhooks and is unique across companies.
const account = {
  phoneNumberId: `10${Date.now()}`.slice(0, 15),
  wabaId: `20${Date.now()}`.slice(0, 15),
  accessToken: `EAAG-e2e-${stamp}`,
  appSecret: `app-secret-${stamp}`,
  verifyToken: `verify-${stamp}`,
  displayPhoneNumber: "+55 11 3000-0022",
};
/**
 * The customer's message arrives with a timestamp that leaves the window open this long: long enough for the
 * attendant to accept the ticket and reply (about 10 s on a loaded 2-core machine), short enough not to keep a
 * worker waiting on the window (75 s before: the spec's 93 s were mostly this wait).
 */
const WINDOW_LEFT_S = 40;

const fake = new FakeGraph();

test.beforeAll(async ({ request }) => {
  await fake.start(Number(process.env.E2E_CLOUD_API_PORT));
  fake.templates = [
    {
      name: "retomar_atendimento",
      language: "pt_BR",
      status: "APPROVED",
      category: "UTILITY",
      components: [{ type: "BODY", text: "Olá {{1}}, seus óculos ficaram prontos. Podemos continuar?" }],
    },
  ];
  fake.addAccount(account);
  await signUpCompany(request, owner);
});

test.afterAll(async () => {
  await fake.stop();
});

test("cloud-api connection, signed inbound, reply inside the window, template picker once it closes", async ({ page, baseURL }) => {
  test.setTimeout(240_000);
  await logIn(page, owner);

  // The admin adds the connection with its Cloud API settings; the token check turns it Conectado.
  await page.goto("/connections");
  await page.getByRole("button", { name: "Adicionar WhatsApp" }).click();
  const dialog = page.getByRole("dialog", { name: "Adicionar WhatsApp" });
  await dialog.getByLabel("Nome").fill("Oficial");
  await dialog.getByRole("combobox", { name: "Canal" }).click();
  await page.getByRole("option", { name: "WhatsApp Cloud API (oficial)" }).click();
  await dialog.getByLabel("ID do número de telefone").fill(account.phoneNumberId);
  await dialog.getByLabel("ID da conta do WhatsApp Business (WABA)").fill(account.wabaId);
  await dialog.getByLabel("Token de acesso (usuário do sistema)").fill(account.accessToken);
  await dialog.getByLabel("Chave secreta do app").fill(account.appSecret);
  await dialog.getByLabel("Token de verificação do webhook").fill(account.verifyToken);
  await dialog.getByRole("button", { name: "Adicionar" }).click();
  await expect(page.getByText("Conexão salva com sucesso.")).toBeVisible();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId("connection-row").filter({ hasText: "Oficial" });
  await expect(row.getByTestId("connection-status")).toHaveText("Conectado");

  // The modal shows the webhook URL to paste in Meta's console; Meta's verification handshake passes.
  await row.getByRole("button", { name: "Editar Oficial" }).click();
  const edit = page.getByRole("dialog", { name: "Editar WhatsApp" });
  const webhookUrl = (await edit.getByTestId("cloud-api-webhook-url").textContent())!.trim();
  expect(webhookUrl).toMatch(new RegExp(`^${baseURL}/api/cloudapi/\\d+/webhook$`));
  await edit.getByRole("button", { name: "Cancelar" }).click();
  const challenge = await page.request.get(`${webhookUrl}?hub.mode=subscribe&hub.challenge=730158&hub.verify_token=${account.verifyToken}`);
  expect(await challenge.text()).toBe("730158");
  fake.addAccount({ ...account, webhookUrl });

  // The customer writes (the message was sent almost 24 hours ago: Meta delivers late, the window closes soon).
  const inbound = await fake.inbound(
    account.phoneNumberId,
    customer.number,
    { type: "text", text: { body: "Meus óculos já ficaram prontos?" } },
    { profileName: customer.name, timestamp: Math.floor(Date.now() / 1000) - 24 * 3600 + WINDOW_LEFT_S },
  );
  expect(inbound.answers.map((a) => a.status)).toEqual([200]);

  // The attendant accepts and replies while the window is still open: the reply goes to the Graph API.
  const log = await acceptPendingTicket(page, customer.name);
  await expect(log.locator('[data-testid="message"][data-from-me="false"]').filter({ hasText: "Meus óculos já ficaram prontos?" })).toBeVisible();
  const composer = page.getByRole("textbox", { name: "Mensagem" });
  await composer.fill("Vou conferir agora mesmo!");
  await composer.press("Enter");
  const mine = log.locator('[data-testid="message"][data-from-me="true"]');
  await expect(mine.filter({ hasText: "Vou conferir agora mesmo!" })).toBeVisible();
  await expect
    .poll(() => fake.sent().some((s) => s.body.type === "text" && JSON.stringify(s.body.text).includes("Vou conferir agora mesmo!")))
    .toBe(true);

  // The window closes: the composer says free text is not allowed and offers the templates instead.
  const picker = page.getByRole("region", { name: "Modelos do WhatsApp" });
  await expect(picker).toBeVisible({ timeout: (WINDOW_LEFT_S + 30) * 1000 });
  await expect(picker.getByText(/o WhatsApp não permite texto livre/)).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Mensagem" })).toHaveCount(0);
  const beforeTemplate = fake.sent().length;

  // The admin syncs the approved templates from the account, picks one, fills its parameter and sends it.
  await picker.getByRole("button", { name: "Sincronizar modelos" }).click();
  await picker.getByRole("combobox", { name: "Modelo aprovado" }).click();
  await page.getByRole("option", { name: "retomar_atendimento (pt_BR)" }).click();
  await picker.getByRole("textbox", { name: "Parâmetro 1" }).fill("Marina");
  await expect(picker.getByRole("figure", { name: "Prévia" })).toContainText("Olá Marina, seus óculos ficaram prontos. Podemos continuar?");
  await picker.getByRole("button", { name: "Enviar modelo" }).click();
  await expect(mine.filter({ hasText: "Olá Marina, seus óculos ficaram prontos. Podemos continuar?" })).toBeVisible();
  await expect.poll(() => fake.sent().length).toBe(beforeTemplate + 1);
  expect(fake.sent().at(-1)!.body).toMatchObject({
    to: customer.number,
    type: "template",
    template: {
      name: "retomar_atendimento",
      language: { code: "pt_BR" },
      components: [{ type: "body", parameters: [{ type: "text", text: "Marina" }] }],
    },
  });
});
