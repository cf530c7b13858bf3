import { expect, test } from "@playwright/test";
import { apiToken, bearer, newStamp, saoPauloDay, signUpCompany, submitLogin, SUPER } from "./support/world";

/**
 * Issue 12: what the platform super user runs. The super user creates a plan and an announcement, and a
 * company admin sees the announcement arrive live; the super user extends an expired company's due date with
 * '+ Vencimento' and its admin can use the app again.
 */
const stamp = newStamp();
const shop = { name: `Armazém ${stamp}`, email: `dono-${stamp}@armazem.test`, password: "segredo-123" };
const late = { name: `Oficina ${stamp}`, email: `dona-${stamp}@oficina.test`, password: "segredo-123" };
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

/** yyyy-MM-dd plus one month, a shorter month's last day when the day does not exist (shared addRecurrence's rule). */
function plusOneMonth(iso: string): string {
  const [y, m, d] = iso.split("-").map(Number) as [number, number, number];
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m, Math.min(d, last))).toISOString().slice(0, 10);
}

const brDate = (iso: string) => iso.split("-").reverse().join("/");

let lateCompanyId = 0;
const expiredOn = saoPauloDay(-4);

test.beforeAll(async ({ request }) => {
  await signUpCompany(request, shop, "first");
  lateCompanyId = await signUpCompany(request, late, "first");
  // The second company's trial ran out four days ago (its row turns red on the Companies tab).
  const root = await apiToken(request, SUPER);
  const moved = await request.put(`/api/companies/${lateCompanyId}`, { headers: bearer(root), data: { dueDate: expiredOn } });
  expect(moved.status()).toBe(200);
});

test("the super user creates a plan and an announcement; a company admin sees the announcement arrive live", async ({ browser, request }) => {
  const adminContext = await browser.newContext();
  const superContext = await browser.newContext();
  const admin = await adminContext.newPage();
  const root = await superContext.newPage();

  // The top bar's feed of announcements, read once signed in: what this company has unread before (a retry's
  // company also has the failed attempt's announcement).
  const feedRead = admin.waitForResponse((response) => new URL(response.url()).pathname === "/api/announcements/" && response.ok());
  await submitLogin(admin, shop);
  await expect(admin.getByText(`Olá ${shop.name}, seja bem-vindo a ${shop.name}`)).toBeVisible();
  const unreadBefore = ((await (await feedRead).json()) as { unreadCount: number }).unreadCount;
  await expect(admin.getByRole("button", { name: `Informativos: ${unreadBefore} não lido(s)` })).toBeVisible();

  // A plan, with the price typed through the R$ mask.
  await submitLogin(root, SUPER);
  await expect(root).toHaveURL(/\/$/);
  await root.goto("/settings");
  await root.getByRole("tab", { name: "Planos" }).click();
  await root.getByRole("button", { name: "Adicionar plano" }).click();
  const planDialog = root.getByRole("dialog", { name: "Novo plano" });
  const planName = `Plano ${stamp}`;
  await planDialog.getByLabel("Nome").fill(planName);
  for (const [label, value] of [
    ["Usuários", "8"],
    ["Conexões", "2"],
    ["Filas", "5"],
  ] as const) {
    await planDialog.getByLabel(label).fill(value);
  }
  await planDialog.getByLabel("Valor").pressSequentially("12990");
  await expect(planDialog.getByLabel("Valor")).toHaveValue("R$ 129,90");
  await planDialog.getByRole("button", { name: "Salvar" }).click();
  await expect(planDialog).toBeHidden();
  const planRow = root.getByTestId("plan-row").filter({ hasText: planName });
  await expect(planRow).toContainText(/R\$\s129,90/);
  // The sign-up page's public list offers it.
  const publicPlans = (await (await request.get("/api/plans/list")).json()) as { name: string; value: number; users: number }[];
  expect(publicPlans.find((p) => p.name === planName)).toMatchObject({ value: 129.9, users: 8 });

  // An announcement with an image, high priority.
  await root.getByRole("navigation", { name: "Menu principal" }).getByRole("link", { name: "Informativos" }).click();
  await expect(root).toHaveURL(/\/announcements$/);
  await root.getByRole("button", { name: "Novo informativo" }).click();
  const dialog = root.getByRole("dialog", { name: "Novo informativo" });
  const title = `Manutenção ${stamp}`;
  await dialog.getByLabel("Título").fill(title);
  await dialog.getByLabel("Texto").fill("A plataforma fica fora do ar sábado, das 22h à meia-noite.");
  await dialog.getByRole("combobox", { name: "Prioridade" }).click();
  await root.getByRole("option", { name: "Alta" }).click();
  await dialog.getByTestId("announcement-file").setInputFiles({ name: "aviso.png", mimeType: "image/png", buffer: PNG });
  await expect(dialog.getByTestId("announcement-attachment-name")).toHaveText("aviso.png");
  // The company admin, on another company, is told at once (its window in front, so the toast animates). Watched
  // from before the save: the toast is on screen for 3 s, which the super user's checks below can outlast on a
  // loaded machine.
  await admin.bringToFront();
  const toldAtOnce = expect(admin.getByText(`Novo informativo: ${title}`)).toBeVisible({ timeout: 30_000 });
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog).toBeHidden();
  await toldAtOnce;
  const row = root.getByTestId("announcement-row").filter({ hasText: title });
  await expect(row).toContainText("Alta");
  await expect(row).toContainText("aviso.png");
  await expect(row).toContainText("Ativo");

  // The company admin reads it.
  await admin.getByRole("button", { name: `Informativos: ${unreadBefore + 1} não lido(s)` }).click();
  const item = admin.getByTestId("announcement-item").filter({ hasText: title });
  await expect(item).toHaveAttribute("data-unread", "true");
  await item.click();
  const viewer = admin.getByRole("dialog", { name: new RegExp(title) });
  await expect(viewer).toContainText("A plataforma fica fora do ar sábado");
  await expect(viewer.getByRole("img", { name: "aviso.png" })).toBeVisible();
  await viewer.getByRole("button", { name: "Fechar" }).click();
  await expect(admin.getByRole("button", { name: `Informativos: ${unreadBefore} não lido(s)` })).toBeVisible();

  await adminContext.close();
  await superContext.close();
});

test("the super user extends an expired company's due date and its admin can use the app again", async ({ browser }) => {
  const adminContext = await browser.newContext();
  const superContext = await browser.newContext();
  const admin = await adminContext.newPage();
  const root = await superContext.newPage();

  // Expired: the admin only gets the billing page.
  await submitLogin(admin, late);
  await expect(admin).toHaveURL(/\/financeiro$/);
  await expect(admin.getByTestId("billing-expired")).toBeVisible();

  await submitLogin(root, SUPER);
  await expect(root).toHaveURL(/\/$/);
  await root.goto("/settings");
  await root.getByRole("tab", { name: "Empresas" }).click();
  await root.getByRole("searchbox", { name: "Pesquisar" }).fill(late.name);
  const row = root.locator(`[data-testid="company-row"][data-company-id="${lateCompanyId}"]`);
  await expect(row).toHaveAttribute("data-tone", "red");
  await expect(row.getByTestId("company-due-date")).toHaveText(brDate(expiredOn));

  await row.getByRole("button", { name: `+ Vencimento da empresa ${late.name}` }).click();
  const next = plusOneMonth(expiredOn);
  await expect(root.getByText(`Vencimento de ${late.name}: ${brDate(next)}`)).toBeVisible();
  await expect(row.getByTestId("company-due-date")).toHaveText(brDate(next));
  await expect(row).toHaveAttribute("data-tone", /none|yellow|orange/);

  // The admin logs in again (a new browser) and has the whole app.
  const againContext = await browser.newContext();
  const again = await againContext.newPage();
  await submitLogin(again, late);
  await expect(again).toHaveURL(/\/$/);
  await expect(again.getByText(`Olá ${late.name}, seja bem-vindo a ${late.name}`)).toBeVisible();
  await again.getByRole("navigation", { name: "Menu principal" }).getByRole("link", { name: "Atendimentos" }).click();
  await expect(again).toHaveURL(/\/tickets$/);
  await expect(again.getByTestId("billing-expired")).toHaveCount(0);

  await againContext.close();
  await adminContext.close();
  await superContext.close();
});
