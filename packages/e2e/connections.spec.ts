import { expect, test } from "@playwright/test";
import { logIn, newStamp, signUpCompany } from "./support/world";

/**
 * Issue 3: an admin adds a simulator connection, opens its QR, "scans" it on /simulator (a second tab)
 * and sees CONNECTED appear on the connections page without reloading; the QR dialog closes by itself and
 * the drawer's exclamation badge goes away once nothing needs attention.
 */
const stamp = newStamp();
const owner = { name: `Floricultura ${stamp}`, email: `dono-${stamp}@flores.test`, password: "segredo-123" };

test.beforeAll(async ({ request }) => {
  await signUpCompany(request, owner, "first");
});

test("admin adds a simulator connection, scans its QR on /simulator and sees it CONNECTED live", async ({ page, context }) => {
  await logIn(page, owner, { landsOn: /\/$/ });

  const nav = page.getByRole("navigation", { name: "Menu principal" });
  // (The menu grows when the campaigns entry loads: navigate directly rather than race the layout.)
  await expect(nav.getByRole("link", { name: "Conexões" })).toHaveAttribute("href", "/connections");
  await page.goto("/connections");
  await expect(page.getByText("Nenhuma conexão cadastrada")).toBeVisible();

  // Add a connection: the channel defaults to the simulator.
  await page.getByRole("button", { name: "Adicionar WhatsApp" }).click();
  const dialog = page.getByRole("dialog", { name: "Adicionar WhatsApp" });
  await dialog.getByLabel("Nome").fill("Loja Centro");
  await expect(dialog.getByRole("combobox", { name: "Canal" })).toHaveText("Simulador");
  await dialog.getByRole("button", { name: "Adicionar" }).click();
  await expect(page.getByText("Conexão salva com sucesso.")).toBeVisible();
  await expect(dialog).toBeHidden();

  const row = page.getByTestId("connection-row").filter({ hasText: "Loja Centro" });
  await expect(row.getByTestId("connection-status")).toHaveText("Aguardando leitura do QR Code");
  // The first connection is the default one.
  await expect(row.getByTestId("connection-default")).toBeVisible();
  // The drawer warns (2 s after the list changed) that a connection needs attention.
  const badge = nav.getByTestId("connections-badge");
  await expect(badge).toHaveAttribute("data-alert", "true");

  // Open the QR dialog.
  await row.getByRole("button", { name: "QR CODE" }).click();
  const qrDialog = page.getByRole("dialog", { name: "Leia o QR Code de Loja Centro" });
  await expect(qrDialog.getByRole("img", { name: "QR Code da conexão" })).toBeVisible();
  const code = await qrDialog.getByTestId("connection-qrcode").getAttribute("data-qrcode");
  expect(code).toMatch(/^balcao-sim:\d+:/);

  // Second tab: the simulator shows the same QR; 'Escanear' pairs the company phone.
  const simulator = await context.newPage();
  const connectionId = Number(code!.split(":")[1]);
  await simulator.goto(`/simulator/${connectionId}`);
  await expect(simulator.getByRole("img", { name: "QR Code de pareamento" })).toBeVisible();
  await expect(simulator.getByTestId("simulator-pairing-code")).toHaveText(code!);
  await simulator.getByRole("button", { name: "Escanear" }).click();
  await expect(simulator.getByText("QR Code lido: conexão estabelecida.")).toBeVisible();
  await expect(simulator.getByRole("form", { name: "Adicionar cliente" })).toBeVisible();

  // Back on the first tab, without reloading: the QR dialog closed by itself and the row says Conectado.
  await expect(qrDialog).toBeHidden();
  await expect(row.getByTestId("connection-status")).toHaveText("Conectado");
  await expect(row.getByRole("button", { name: "Desconectar" })).toBeVisible();
  await expect(row.getByRole("button", { name: "QR CODE" })).toHaveCount(0);
  await expect(badge).toHaveAttribute("data-alert", "false");

  // The 'Abrir simulador' link points to the same page.
  await expect(row.getByRole("link", { name: /Abrir simulador/ })).toHaveAttribute("href", `/simulator/${connectionId}`);

  // Disconnect asks first, then the row shows the DISCONNECTED actions.
  await row.getByRole("button", { name: "Desconectar" }).click();
  const confirm = page.getByRole("dialog", { name: "Desconectar Loja Centro?" });
  await confirm.getByRole("button", { name: "Desconectar" }).click();
  await expect(row.getByTestId("connection-status")).toHaveText("Desconectado");
  await expect(row.getByRole("button", { name: "Tentar novamente" })).toBeVisible();
  await expect(row.getByRole("button", { name: "Novo QR CODE" })).toBeVisible();
  await expect(badge).toHaveAttribute("data-alert", "true");

  // New QR: a fresh pairing code is shown again.
  await row.getByRole("button", { name: "Novo QR CODE" }).click();
  await expect(row.getByTestId("connection-status")).toHaveText("Aguardando leitura do QR Code");
  await simulator.close();
});
