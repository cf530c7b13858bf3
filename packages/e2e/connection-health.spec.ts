import { expect, test } from "@playwright/test";
import { logIn, newStamp, signUpCompany } from "./support/world";

/**
 * Issue 21: pairing by a code typed on the phone, through the simulator (no phone needed). The admin opens the
 * QR dialog, picks "Código no celular", enters the company's number and gets the 8-character code shown large
 * with its countdown; the simulated phone (a second tab) types it; the connection goes CONNECTED live and the
 * health view shows the status change.
 */
const stamp = newStamp();
const owner = { name: `Padaria ${stamp}`, email: `dono-${stamp}@padaria.test`, password: "segredo-123" };

test.beforeAll(async ({ request }) => {
  await signUpCompany(request, owner, "first");
});

test("an admin pairs a simulator connection with a code on the phone and sees it in the health view", async ({ page, context }) => {
  await logIn(page, owner, { landsOn: /\/$/ });
  await page.goto("/connections");
  await page.getByRole("button", { name: "Adicionar WhatsApp" }).click();
  const dialog = page.getByRole("dialog", { name: "Adicionar WhatsApp" });
  await dialog.getByLabel("Nome").fill("Balcão Código");
  await dialog.getByRole("button", { name: "Adicionar" }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByTestId("connection-row").filter({ hasText: "Balcão Código" });
  await expect(row.getByTestId("connection-status")).toHaveText("Aguardando leitura do QR Code");
  const connectionId = await row.getAttribute("data-connection-id");

  await row.getByRole("button", { name: "QR CODE" }).click();
  const qrDialog = page.getByRole("dialog", { name: "Leia o QR Code de Balcão Código" });
  await qrDialog.getByRole("tab", { name: "Código no celular" }).click();
  await qrDialog.getByLabel("Número com código do país").fill("+55 11 91234-5678");
  await qrDialog.getByRole("button", { name: "Gerar código" }).click();
  const code = qrDialog.getByTestId("pairing-code");
  await expect(code).toHaveText(/^[1-9A-HJ-NP-TV-Z]{4}-[1-9A-HJ-NP-TV-Z]{4}$/);
  await expect(qrDialog.getByTestId("pairing-countdown")).toHaveText(/Expira em \d+ s/);
  await expect(row.getByTestId("connection-status")).toHaveText("Pareando");
  const typed = (await code.textContent())!;

  // The simulated company phone: Linked devices > Link with phone number, types the code.
  const phone = await context.newPage();
  await phone.goto(`/simulator/${connectionId}`);
  const form = phone.getByRole("form", { name: "Conectar com número de telefone" });
  await form.getByLabel("Código de pareamento").fill(typed);
  await form.getByRole("button", { name: "Conectar" }).click();
  await expect(phone.getByRole("form", { name: "Adicionar cliente" })).toBeVisible();

  // Back on the connections page, without reloading: the dialog closed and the row is connected.
  await expect(qrDialog).toBeHidden();
  await expect(row.getByTestId("connection-status")).toHaveText("Conectado");

  // The health view has the timeline up to CONNECTED.
  await row.getByRole("button", { name: "Saúde de Balcão Código" }).click();
  const health = page.getByRole("dialog", { name: "Saúde de Balcão Código" });
  const entries = health.getByTestId("health-entry");
  await expect(entries.first()).toHaveAttribute("data-status", "CONNECTED");
  await expect(health.getByTestId("health-entry").and(page.locator('[data-status="PAIRING"]'))).toHaveCount(1);
  await expect(health.getByTestId("health-last-error")).toHaveText("Nenhum erro registrado");
});
