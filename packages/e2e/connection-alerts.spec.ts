import { expect, test } from "@playwright/test";
import { startMailbox, type Mailbox } from "./support/mailbox";
import { logIn, newStamp, pairSimulator, signUpAndLogIn, simulatorLink } from "./support/world";

/**
 * Issue 21, item 3: the connection alerts. An admin sets the alert delay to its shortest (1 min), points the
 * alert e-mails at the company's SMTP server (a real receiver this spec starts on 127.0.0.1; the e2e server
 * may reach it through WEBHOOK_ALLOW_PRIVATE_TARGETS, playwright.config.ts) and sends a test e-mail, which
 * arrives. Then WhatsApp's connection is lost on the simulator: once the delay has passed the bell shows the
 * unread alert without a reload, its entry opens the connection's health dialog, and the alert e-mail arrives.
 *
 * The delay's shortest setting is 1 minute, so this scenario takes a little over a minute.
 */
const stamp = newStamp();
const owner = { name: `Floricultura ${stamp}`, email: `dona-${stamp}@floricultura.test`, password: "segredo-123" };
const login = { user: `alertas-${stamp}`, password: "s3nha-smtp" };
const onCall = `plantao-${stamp}@floricultura.test`;

let mailbox: Mailbox;
let connectionId = 0;
let simulatorUrl = "";

test.beforeAll(async ({ request }) => {
  mailbox = await startMailbox(login);
  const token = await signUpAndLogIn(request, owner);
  connectionId = await pairSimulator(request, token);
  simulatorUrl = (await simulatorLink(request, token, connectionId)).url;
});
test.afterAll(async () => {
  await mailbox?.close();
});

const mailsWith = (subject: string) => mailbox.received.filter((m) => m.subject === subject);

test("a dropped connection alerts the admin live in the bell and by e-mail through the company's SMTP server", async ({ browser, page }) => {
  // Waiting out the shortest alert delay (1 min) is part of the scenario.
  test.setTimeout(150_000);
  await logIn(page, owner);
  const bell = page.getByTestId("alerts-unread");
  await expect(bell).toHaveAttribute("data-count", "0");

  // Options: alert after 1 minute down.
  await page.goto("/settings");
  await page.getByRole("combobox", { name: "Alerta de conexão fora do ar" }).click();
  await page.getByRole("option", { name: "1 min" }).click();
  await expect(page.getByText("Operação atualizada com sucesso.")).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Alerta de conexão fora do ar" })).toHaveText("1 min");

  // E-mail: the company's SMTP server, a write-only password, on-call recipient; save, then a test e-mail.
  await page.getByRole("tab", { name: "E-mail" }).click();
  await page.getByRole("switch", { name: "Enviar alertas por e-mail" }).check();
  await page.getByRole("textbox", { name: "Servidor SMTP", exact: true }).fill("127.0.0.1");
  await page.getByRole("textbox", { name: "Porta", exact: true }).fill(String(mailbox.port));
  await page.getByRole("textbox", { name: "Usuário", exact: true }).fill(login.user);
  await page.getByLabel("Senha", { exact: true }).fill(login.password);
  await page.getByRole("textbox", { name: "Remetente (e-mail)", exact: true }).fill(`alertas@floricultura.test`);
  await page.getByRole("textbox", { name: "Destinatários", exact: true }).fill(onCall);
  await page.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText("Configuração de e-mail salva.")).toBeVisible();
  // The password is not shown again; the form says one is kept.
  await expect(page.getByLabel("Senha", { exact: true })).toHaveValue("");
  await expect(page.getByText("Uma senha está salva; deixe em branco para mantê-la.")).toBeVisible();

  await page.getByRole("button", { name: "Enviar e-mail de teste" }).click();
  await expect(page.getByText(`E-mail de teste enviado para ${onCall}.`)).toBeVisible();
  const tests = mailsWith("[Balcão] E-mail de teste");
  expect(tests).toHaveLength(1);
  expect(tests[0]).toMatchObject({ to: [onCall], user: login.user });
  expect(tests[0]!.text).toContain(`Os alertas de conexão da empresa ${owner.name} chegarão assim.`);

  // WhatsApp's connection is lost, on the simulated company phone, and stays down.
  const phoneContext = await browser.newContext();
  const phone = await phoneContext.newPage();
  await phone.goto(simulatorUrl);
  await phone.getByRole("button", { name: "Derrubar conexão" }).click();
  await expect(phone.getByRole("button", { name: "Reconectar" })).toBeVisible();
  await phoneContext.close();

  // A minute later, on the same page (no reload): the toast and the bell's unread alert.
  await expect(bell).toHaveAttribute("data-count", "1", { timeout: 100_000 });
  await expect(page.getByText("A conexão Simulador está fora do ar há mais de 1 min (Conexão perdida).", { exact: false })).toBeVisible();
  await page.getByRole("button", { name: "Alertas de conexão: 1 não lido" }).click();
  const entry = page.getByRole("button", { name: "Abrir a saúde de Simulador" });
  await expect(entry).toHaveAttribute("data-unread", "true");
  await expect(entry).toContainText("Simulador fora do ar");
  await expect(entry).toContainText("Conexão perdida · Conexão perdida");
  await entry.click();

  // The entry opens the connection's health dialog, whose timeline records the alert.
  await expect(page).toHaveURL(/\/connections/);
  const health = page.getByRole("dialog", { name: "Saúde de Simulador" });
  await expect(health).toBeVisible();
  await expect(health.getByTestId("health-entry").first()).toHaveAttribute("data-kind", "alert");
  await expect(health.getByTestId("health-entry").first()).toContainText("Administradores alertados");
  await health.getByRole("button", { name: "Fechar" }).click();

  // The alert e-mail reached the SMTP server, naming the connection and the reason.
  await expect.poll(() => mailsWith("[Balcão] Conexão Simulador fora do ar: Conexão perdida").length, { timeout: 30_000 }).toBe(1);
  const alert = mailsWith("[Balcão] Conexão Simulador fora do ar: Conexão perdida")[0]!;
  expect(alert).toMatchObject({ to: [onCall], user: login.user });
  expect(alert.text).toContain("A conexão Simulador está fora do ar há mais de 1 min.");
  expect(alert.text).toContain("Ela continua tentando reconectar.");

  // Marked read, the bell counts nothing again.
  await page.getByRole("button", { name: "Alertas de conexão: 1 não lido" }).click();
  await page.getByRole("button", { name: "Marcar todos como lidos" }).click();
  await expect(bell).toHaveAttribute("data-count", "0");
});
