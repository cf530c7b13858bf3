import { expect, test } from "@playwright/test";
import { newStamp, signUpCompany, submitLogin } from "./support/world";

/** Login errors, route guards and the one-login-per-user rule (spec §4 Session). */
const stamp = newStamp();
const owner = { name: `Loja ${stamp}`, email: `dona-${stamp}@loja.test`, password: "segredo-123" };

test.beforeAll(async ({ request }) => {
  await signUpCompany(request, owner, "first");
});

test("guards private pages and translates a wrong password", async ({ page }) => {
  await page.goto("/users");
  await expect(page).toHaveURL(/\/login$/);
  await submitLogin(page, { email: owner.email, password: "wrong-password" });
  await expect(page.getByText("Erro de autenticação. Por favor, tente novamente.")).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test("a login elsewhere logs the older session out", async ({ browser }) => {
  const first = await browser.newContext();
  const second = await browser.newContext();
  const a = await first.newPage();
  const b = await second.newPage();

  await submitLogin(a, owner);
  await expect(a.getByText(`Olá ${owner.name}, seja bem-vindo a ${owner.name}`)).toBeVisible();
  // the first tab is on a page of its own when the second login happens
  await a.getByRole("navigation", { name: "Menu principal" }).getByRole("link", { name: "Usuários" }).click();
  await expect(a).toHaveURL(/\/users$/);
  await a.waitForTimeout(500); // let the socket finish its handshake

  await submitLogin(b, owner);
  await expect(b).toHaveURL(/\/$/);

  await expect(a.getByText("Sua conta foi acessada em outro computador.")).toBeVisible();
  await expect(a).toHaveURL(/\/login$/, { timeout: 5_000 });
  // the newer session keeps working
  await b.reload();
  await expect(b.getByText(`Olá ${owner.name}, seja bem-vindo a ${owner.name}`)).toBeVisible();

  await first.close();
  await second.close();
});
