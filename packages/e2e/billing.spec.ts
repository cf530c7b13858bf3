import { expect, test } from "@playwright/test";
import { apiToken, bearer, newStamp, saoPauloDay, signUpCompany, submitLogin, SUPER } from "./support/world";

/**
 * Issue 13: a company whose subscription expired is not a dead end. Its admin logs in to a billing-only
 * session, pays the overdue invoice by Pix through the sandbox PSP (the payer's bank calls our webhook; the
 * server confirms the charge at the PSP), sees the renewal, and the whole app is open again.
 */
const stamp = newStamp();
const owner = { name: `Padaria ${stamp}`, email: `dono-${stamp}@padaria.test`, password: "segredo-123" };

test.beforeAll(async ({ request }) => {
  // The first plan: the invoice's R$ 49,90 below is its price.
  const companyId = await signUpCompany(request, owner, "first");
  // The trial ran out three days ago (the super user moves the due date, as support would).
  const root = await apiToken(request, SUPER);
  const moved = await request.put(`/api/companies/${companyId}`, { headers: bearer(root), data: { dueDate: saoPauloDay(-3) } });
  expect(moved.status()).toBe(200);
});

test("an expired company's admin pays the invoice by Pix and gets the whole app back", async ({ page, request }) => {
  await submitLogin(page, owner);
  // Billing-only: straight to the finance page, the rest of the app is closed.
  await expect(page).toHaveURL(/\/financeiro$/);
  await expect(page.getByTestId("billing-expired")).toBeVisible();
  await page.goto("/tickets");
  await expect(page).toHaveURL(/\/financeiro$/);

  const row = page.getByTestId("invoice-row").first();
  await expect(row).toHaveAttribute("data-status", "overdue");
  await expect(row.getByText("Vencido")).toBeVisible();
  await expect(row.getByText(/R\$\s49,90/)).toBeVisible();
  await row.getByRole("button", { name: /Pagar a fatura/ }).click();

  const dialog = page.getByRole("dialog", { name: "Falta pouco!" });
  await expect(dialog.getByText("Personalizar")).toBeVisible();
  await expect(dialog.getByRole("button", { name: "PRÓXIMO" })).toHaveCount(0);
  await dialog.getByRole("button", { name: "Continuar com este plano" }).click();
  await dialog.getByRole("button", { name: "PAGAR" }).click();
  await expect(dialog.getByTestId("pix-total")).toHaveText(/Total: R\$\s49,90/);
  await expect(dialog.getByRole("img", { name: /QR Code Pix/ })).toBeVisible();
  // "Copiado" shows for one second (COPY_CONFIRMATION_MS): on a loaded machine a polling assertion can miss it,
  // so the button's labels are recorded as they change and read afterwards.
  const copyButton = dialog.getByRole("button", { name: "Copiar código QR" });
  await copyButton.evaluate((button) => {
    const labels: string[] = [];
    (window as unknown as { __copyLabels?: string[] }).__copyLabels = labels;
    new MutationObserver(() => labels.push(button.textContent ?? "")).observe(button, { subtree: true, childList: true, characterData: true });
  });
  await copyButton.click();
  await expect.poll(() => page.evaluate(() => (window as unknown as { __copyLabels?: string[] }).__copyLabels)).toContain("Copiado");
  await expect(dialog.getByRole("button", { name: "Copiar código QR" })).toBeVisible();

  // The customer's bank pays the copy-and-paste code at the sandbox PSP, which calls our webhook.
  const code = await dialog.getByTestId("pix-code").inputValue();
  expect(code).toMatch(/^000201/);
  const paid = await request.post("/api/pix-sandbox/pay", { data: { pixCopiaECola: code } });
  expect(paid.status()).toBe(200);
  expect(((await paid.json()) as { webhookStatus: number }).webhookStatus).toBe(200);

  await expect(page.getByText(/Sua licença foi renovada até \d{2}\/\d{2}\/\d{4}!/)).toBeVisible();
  // Back to / after 4 s, with the full app.
  await expect(page).toHaveURL(/\/$/, { timeout: 8_000 });
  await page.getByRole("navigation", { name: "Menu principal" }).getByRole("link", { name: "Atendimentos" }).click();
  await expect(page).toHaveURL(/\/tickets$/);
  await expect(page.getByTestId("billing-expired")).toHaveCount(0);

  // The invoice is paid now.
  await page.goto("/financeiro");
  await expect(page.getByTestId("invoice-row").first()).toHaveAttribute("data-status", "paid");
  await expect(page.getByTestId("invoice-row").first().getByRole("button", { name: "PAGO" })).toBeDisabled();
});
