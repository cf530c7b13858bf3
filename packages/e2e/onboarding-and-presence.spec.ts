import { expect, test, type APIRequestContext, type Page } from "@playwright/test";

/**
 * Issue 16, items 1 and 6: a new company's admin lands on the dashboard's 'Primeiros passos', tries
 * WhatsApp without a phone (the simulator) and sees the step ticked; then two attendants open the same
 * ticket, each sees the other, one sees 'X está digitando…' while the other types, and sending on a
 * colleague's ticket asks first.
 */
const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
const owner = { name: `Sorveteria ${stamp}`, email: `dono-${stamp}@sorvete.test`, password: "segredo-123" };
const bruno = { name: `Bruno ${stamp}`, email: `bruno-${stamp}@sorvete.test`, password: "senha-123" };
const carla = { name: `Carla ${stamp}`, email: `carla-${stamp}@sorvete.test`, password: "senha-123" };
const customer = { number: "5511987650161", name: `Cliente ${stamp}` };

let connectionId = 0;

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Senha").fill(password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).not.toHaveURL(/\/login$/);
}

async function apiLogin(request: APIRequestContext, email: string, password: string) {
  const res = await request.post("/api/auth/login", { data: { email, password } });
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as { token: string; user: { id: number } };
  return { headers: { Authorization: `Bearer ${body.token}` }, id: body.user.id };
}

test.beforeAll(async ({ request }) => {
  const plans = (await (await request.get("/api/plans/list")).json()) as { id: number; users: number }[];
  const plan = plans.reduce((a, b) => (b.users > a.users ? b : a));
  const signup = await request.post("/api/companies/cadastro", { data: { ...owner, phone: "", planId: plan.id } });
  expect(signup.status(), await signup.text()).toBe(201);
});

test("a new company's admin sees the checklist, connects the simulator and sees the step ticked", async ({ page, context }) => {
  await signIn(page, owner.email, owner.password);
  await expect(page).toHaveURL(/\/$/);
  const checklist = page.getByRole("region", { name: "Primeiros passos" });
  await expect(checklist).toBeVisible();
  await expect(checklist.getByTestId("onboarding-progress")).toHaveText("0 de 4 concluídos");
  const step = checklist.getByTestId("onboarding-step-connection");
  await expect(step).toHaveAttribute("data-done", "false");
  await expect(checklist.getByRole("link", { name: "Criar fila" })).toHaveAttribute("href", "/queues");

  // 'Experimentar sem celular' opens the add dialog with the Simulator channel chosen.
  await step.getByRole("link", { name: "Experimentar sem celular" }).click();
  await expect(page).toHaveURL(/\/connections$/);
  const dialog = page.getByRole("dialog", { name: "Adicionar WhatsApp" });
  await expect(dialog.getByRole("combobox", { name: "Canal" })).toHaveText("Simulador");
  await dialog.getByLabel("Nome").fill("Simulador");
  await dialog.getByRole("button", { name: "Adicionar" }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByTestId("connection-row").filter({ hasText: "Simulador" });
  await row.getByRole("button", { name: "QR CODE" }).click();
  const code = await page.getByTestId("connection-qrcode").getAttribute("data-qrcode");
  connectionId = Number(code!.split(":")[1]);

  // The "phone" is the simulator page in another tab.
  const simulator = await context.newPage();
  await simulator.goto(`/simulator/${connectionId}`);
  await simulator.getByRole("button", { name: "Escanear" }).click();
  await expect(simulator.getByText("QR Code lido: conexão estabelecida.")).toBeVisible();
  await simulator.close();
  await expect(row.getByTestId("connection-status")).toHaveText("Conectado");

  // Back on the dashboard: the step is ticked from the server's data.
  await page.goto("/");
  await expect(checklist.getByTestId("onboarding-step-connection")).toHaveAttribute("data-done", "true");
  await expect(checklist.getByTestId("onboarding-progress")).toHaveText("1 de 4 concluídos");
  await expect(checklist.getByTestId("onboarding-step-connection").getByRole("link")).toHaveCount(0);
});

test("two attendants on one ticket see each other and the typing indicator", async ({ browser, request }) => {
  // The admin invites two attendants (no queues: they see the tickets no queue has taken yet).
  const admin = await apiLogin(request, owner.email, owner.password);
  if (!connectionId) {
    // Run alone (or after the first test failed): connect a simulator through the API.
    const created = await request.post("/api/whatsapp", { headers: admin.headers, data: { name: "Simulador", channel: "simulator" } });
    expect(created.status(), await created.text()).toBe(201);
    connectionId = ((await created.json()) as { id: number }).id;
    const state = await waitFor(
      async () =>
        (await (await request.get(`/api/simulator/${connectionId}`, { headers: admin.headers })).json()) as {
          connection: { status: string; qrcode: string };
        },
      (st) => st.connection.status === "qrcode" && !!st.connection.qrcode,
    );
    expect(
      (await request.post(`/api/simulator/${connectionId}/scan`, { headers: admin.headers, data: { code: state.connection.qrcode } })).ok(),
    ).toBeTruthy();
  }
  for (const person of [bruno, carla]) {
    const res = await request.post("/api/users", { headers: admin.headers, data: { ...person, profile: "user", queueIds: [] } });
    expect(res.status(), await res.text()).toBe(201);
  }
  // A customer writes through the simulator; the admin accepts the ticket.
  const sent = await request.post(`/api/simulator/${connectionId}/phones/${customer.number}/messages`, {
    headers: admin.headers,
    data: { type: "text", body: "Tem sorvete de açaí?", name: customer.name },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  const pending = await waitFor(
    async () =>
      ((await (await request.get("/api/tickets?status=pending", { headers: admin.headers })).json()) as { tickets: { id: number; uuid: string }[] })
        .tickets,
    (list) => list.length > 0,
  );
  const ticket = pending[0]!;
  const assign = await request.put(`/api/tickets/${ticket.id}`, { headers: admin.headers, data: { status: "open" } });
  expect(assign.status(), await assign.text()).toBe(200);
  // (Accepting assigns the ticket to whoever accepts: here the admin. Bruno and Carla are both colleagues of it.)
  const assignee = ((await assign.json()) as { user: { name: string } | null }).user?.name ?? "";
  expect(assignee).not.toBe("");

  const brunoPage = await (await browser.newContext()).newPage();
  const carlaContext = await browser.newContext();
  const carlaPage = await carlaContext.newPage();
  await signIn(brunoPage, bruno.email, bruno.password);
  await signIn(carlaPage, carla.email, carla.password);
  await brunoPage.goto(`/tickets/${ticket.uuid}`);
  await carlaPage.goto(`/tickets/${ticket.uuid}`);

  await expect(brunoPage.getByTestId("ticket-viewers")).toHaveText(`Também vendo este atendimento: ${carla.name}`);
  await expect(carlaPage.getByTestId("ticket-viewers")).toHaveText(`Também vendo este atendimento: ${bruno.name}`);

  // Carla types: Bruno sees it; Carla does not see herself typing.
  const composer = carlaPage.getByRole("textbox", { name: "Mensagem" });
  await composer.pressSequentially("Oi, posso ajudar", { delay: 30 });
  await expect(brunoPage.getByTestId("ticket-typing")).toHaveText(`${carla.name} está digitando…`);
  await expect(carlaPage.getByTestId("ticket-typing")).toHaveCount(0);

  // Sending on a colleague's ticket asks first; cancelling keeps the text.
  await composer.press("Enter");
  const confirm = carlaPage.getByRole("dialog", { name: `Este atendimento é de ${assignee}` });
  await expect(confirm).toBeVisible();
  await confirm.getByRole("button", { name: "Cancelar" }).click();
  await expect(confirm).toBeHidden();
  await expect(composer).toHaveValue("Oi, posso ajudar");

  // Carla leaves: Bruno is alone again.
  await carlaContext.close();
  await expect(brunoPage.getByTestId("ticket-viewers")).toHaveCount(0);
});
