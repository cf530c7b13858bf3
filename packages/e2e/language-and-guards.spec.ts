import { expect, test, type APIRequestContext, type Page } from "@playwright/test";

/**
 * Issue 16: an attendant typing an admin page's address lands on /tickets with a message; the language picker
 * of the user menu switches the interface and the choice survives a reload — also without this browser's copy,
 * because it is stored on the user.
 */
const stamp = Date.now().toString(36);
const owner = { name: `Livraria ${stamp}`, email: `dona-${stamp}@livraria.test`, password: "segredo-123" };
const attendant = { name: `Atendente ${stamp}`, email: `atendente-${stamp}@livraria.test`, password: "senha-123" };

async function prepare(request: APIRequestContext) {
  const plans = (await (await request.get("/api/plans/list")).json()) as { id: number; users: number }[];
  const plan = plans.reduce((a, b) => (b.users > a.users ? b : a));
  const signup = await request.post("/api/companies/cadastro", { data: { ...owner, phone: "", planId: plan.id } });
  expect(signup.status(), await signup.text()).toBe(201);
  const login = await request.post("/api/auth/login", { data: { email: owner.email, password: owner.password } });
  expect(login.status(), await login.text()).toBe(200);
  const { token } = (await login.json()) as { token: string };
  const created = await request.post("/api/users", { data: { ...attendant, profile: "user" }, headers: { Authorization: `Bearer ${token}` } });
  expect(created.status(), await created.text()).toBe(201);
}

async function logIn(page: Page) {
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(attendant.email);
  await page.getByLabel("Senha").fill(attendant.password);
  await page.getByLabel("Senha").press("Enter");
  await expect(page).toHaveURL(/\/tickets/);
}

test("an attendant typing /users lands on /tickets with a message; English survives a reload", async ({ page, request }) => {
  await prepare(request);
  await logIn(page);
  const nav = page.getByRole("navigation", { name: "Menu principal" });
  await expect(nav.getByText("Respostas rápidas")).toBeVisible();
  await expect(nav.getByText("Usuários")).toHaveCount(0);

  // Typed addresses of admin pages: not rendered, back to /tickets with the reason.
  for (const path of ["/users", "/connections"]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/tickets$/);
    await expect(page.getByText("Você não tem permissão para acessar esta página.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Adicionar usuário" })).toHaveCount(0);
  }

  // The language picker of the user menu.
  await page.getByRole("button", { name: "Perfil" }).click();
  await expect(page.getByRole("menuitemradio", { name: "Português" })).toHaveAttribute("aria-checked", "true");
  const saved = page.waitForResponse((res) => res.request().method() === "PUT" && /\/api\/users\/\d+$/.test(res.url()));
  await page.getByRole("menuitemradio", { name: "English" }).click();
  expect((await saved).status()).toBe(200);
  const english = page.getByRole("navigation", { name: "Main menu" });
  await expect(english.getByText("Quick replies")).toBeVisible();
  await expect(english.getByText("Log out")).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "en-US");

  await page.reload();
  await expect(page.getByRole("navigation", { name: "Main menu" }).getByText("Quick replies")).toBeVisible();

  // Without this browser's copy (the browser says pt-BR), the user's stored choice still wins.
  await page.evaluate(() => localStorage.removeItem("language"));
  await page.reload();
  await expect(page.getByRole("navigation", { name: "Main menu" }).getByText("Quick replies")).toBeVisible();

  // And the guard's message follows the language.
  await page.goto("/users");
  await expect(page).toHaveURL(/\/tickets$/);
  await expect(page.getByText("You do not have permission to open this page.")).toBeVisible();
});
