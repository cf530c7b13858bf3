import { expect, test, type Page } from "@playwright/test";

/** Login errors, route guards and the one-login-per-user rule (spec §4 Session). */
const stamp = Date.now().toString(36);
const owner = { name: `Loja ${stamp}`, email: `dona-${stamp}@loja.test`, password: "segredo-123" };

async function login(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Senha").fill(password);
  await page.getByRole("button", { name: "Entrar" }).click();
}

test.beforeAll(async ({ request }) => {
  const plans = await (await request.get("/api/plans/list")).json();
  const res = await request.post("/api/companies/cadastro", { data: { ...owner, phone: "", planId: plans[0].id } });
  expect(res.status()).toBe(201);
});

test("guards private pages and translates a wrong password", async ({ page }) => {
  await page.goto("/users");
  await expect(page).toHaveURL(/\/login$/);
  await login(page, owner.email, "wrong-password");
  await expect(page.getByText("Erro de autenticação. Por favor, tente novamente.")).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test("a login elsewhere logs the older session out", async ({ browser }) => {
  const first = await browser.newContext();
  const second = await browser.newContext();
  const a = await first.newPage();
  const b = await second.newPage();

  await login(a, owner.email, owner.password);
  await expect(a.getByText(`Olá ${owner.name}, seja bem-vindo a ${owner.name}`)).toBeVisible();
  // the first tab is on a page of its own when the second login happens
  await a.getByRole("navigation", { name: "Menu principal" }).getByRole("link", { name: "Usuários" }).click();
  await expect(a).toHaveURL(/\/users$/);
  await a.waitForTimeout(500); // let the socket finish its handshake

  await login(b, owner.email, owner.password);
  await expect(b).toHaveURL(/\/$/);

  await expect(a.getByText("Sua conta foi acessada em outro computador.")).toBeVisible();
  await expect(a).toHaveURL(/\/login$/, { timeout: 5_000 });
  // the newer session keeps working
  await b.reload();
  await expect(b.getByText(`Olá ${owner.name}, seja bem-vindo a ${owner.name}`)).toBeVisible();

  await first.close();
  await second.close();
});
