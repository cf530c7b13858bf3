import { expect, test, type Page } from "@playwright/test";
import { logIn, newStamp, signUpCompany } from "./support/world";

/** Queues, their chatbot option tree and opening hours per queue (issue 7, spec §2). */
const stamp = newStamp();
const owner = { name: `Loja Filas ${stamp}`, email: `filas-${stamp}@loja.test`, password: "segredo-123" };
const queueName = `Vendas ${stamp}`;
const color = "#1565C0";

const login = (page: Page) => logIn(page, owner, { submit: "enter", landsOn: /\/$/ });

test.beforeAll(async ({ request }) => {
  await signUpCompany(request, owner, "first");
});

test("admin builds a queue with a colour and a two-level option tree, then turns on opening hours per queue", async ({ page }) => {
  await login(page);
  const nav = page.getByRole("navigation", { name: "Menu principal" });
  await nav.getByRole("link", { name: "Filas & Chatbot" }).click();
  await expect(page).toHaveURL(/\/queues$/);
  await expect(page.getByText("Nenhuma fila cadastrada")).toBeVisible();

  // Create the queue: name, colour from the palette, greeting.
  await page.getByRole("button", { name: "Adicionar fila" }).click();
  let dialog = page.getByRole("dialog", { name: "Adicionar fila" });
  await expect(dialog.getByText("Salve a fila primeiro; depois você poderá montar as opções do chatbot aqui.")).toBeVisible();
  // scheduleType is 'disabled' for a new company: no tabs at all.
  await expect(dialog.getByRole("tab")).toHaveCount(0);
  await dialog.getByLabel("Nome").fill(queueName);
  await dialog.getByRole("button", { name: color, exact: true }).click();
  await expect(dialog.getByTestId("color-preview")).toContainText(color);
  await dialog.getByLabel("Mensagem de saudação").fill("Olá {nome}! Escolha uma opção:");
  await dialog.getByRole("button", { name: "Salvar", exact: true }).click();
  await expect(page.getByText("Fila salva com sucesso")).toBeVisible();

  // The new queue stays open, now editable, with its option tree.
  dialog = page.getByRole("dialog", { name: "Editar fila" });
  await expect(dialog.getByText(/Nenhuma opção cadastrada/)).toBeVisible();
  await dialog.getByRole("button", { name: "Adicionar opção" }).click();
  let form = dialog.getByRole("form", { name: "Nova opção" });
  await form.getByLabel("Título").fill("Comprar");
  await form.getByLabel("Mensagem").fill("O que deseja comprar?");
  await form.getByRole("button", { name: "Salvar opção" }).click();
  const root = dialog.getByRole("listitem", { name: "1 - Comprar" });
  await expect(root).toBeVisible();

  await root.getByRole("button", { name: "Adicionar sub-opção em Comprar" }).click();
  form = dialog.getByRole("form", { name: "Nova sub-opção" });
  await form.getByLabel("Título").fill("Celulares");
  await form.getByLabel("Mensagem").fill("Um vendedor já vai te atender.");
  await form.getByRole("button", { name: "Salvar opção" }).click();
  await expect(dialog.getByRole("list", { name: "Sub-opções de Comprar" }).getByRole("listitem", { name: "1 - Celulares" })).toBeVisible();

  await dialog.getByRole("button", { name: "Fechar" }).click();
  await expect(dialog).toBeHidden();

  // The table shows name, swatch and greeting.
  const row = page.getByRole("table", { name: "Filas & Chatbot" }).getByRole("row").filter({ hasText: queueName });
  await expect(row.getByRole("img", { name: `Cor ${color}` })).toBeVisible();
  await expect(row.getByText("Olá {nome}! Escolha uma opção:")).toBeVisible();

  // The tree was stored on the server.
  const token = await page.evaluate(() => localStorage.getItem("token"));
  const headers = { Authorization: `Bearer ${token}` };
  const queues = await (await page.request.get("/api/queue", { headers })).json();
  const queue = queues.find((q: { name: string }) => q.name === queueName);
  expect(queue.color).toBe(color);
  const tree = await (await page.request.get(`/api/queue-options?queueId=${queue.id}&parentId=-1`, { headers })).json();
  expect(tree).toMatchObject([{ title: "Comprar", option: "1", children: [{ title: "Celulares", option: "1", children: [] }] }]);

  // Settings: opening hours per queue.
  await nav.getByRole("link", { name: "Configurações" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  // Opções (spec §2) and our own E-mail tab (the SMTP setting for connection alerts, issue 21).
  await expect(page.getByRole("tab")).toHaveText(["Opções", "E-mail"]);
  await page.getByRole("combobox", { name: "Gerenciamento de expediente" }).click();
  await page.getByRole("option", { name: "Fila" }).click();
  await expect(page.getByText("Operação atualizada com sucesso.")).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Gerenciamento de expediente" })).toHaveText("Fila");

  // Back in the queue modal the 'Horários de Atendimento' tab is there, with the default week.
  await nav.getByRole("link", { name: "Filas & Chatbot" }).click();
  await page.getByRole("button", { name: `Editar ${queueName}` }).click();
  dialog = page.getByRole("dialog", { name: "Editar fila" });
  await expect(dialog.getByRole("tab", { name: "Dados da Fila" })).toHaveAttribute("aria-selected", "true");
  await expect(dialog.getByRole("listitem", { name: "1 - Celulares" })).toBeVisible();
  await dialog.getByRole("tab", { name: "Horários de Atendimento" }).click();
  await expect(dialog.getByLabel("Segunda-feira — Início")).toHaveValue("08:00");
  await expect(dialog.getByLabel("Sábado — Fim")).toHaveValue("12:00");
  await dialog.getByLabel("Segunda-feira — Fim").fill("");
  await dialog.getByLabel("Segunda-feira — Fim").pressSequentially("1930");
  await expect(dialog.getByLabel("Segunda-feira — Fim")).toHaveValue("19:30");
  await dialog.getByRole("button", { name: "Salvar", exact: true }).click();
  await expect(page.getByText("Fila salva com sucesso")).toBeVisible();
  await expect(dialog).toBeHidden();
  const saved = await (await page.request.get(`/api/queue/${queue.id}`, { headers })).json();
  expect(saved.schedules[0]).toMatchObject({ weekdayEn: "monday", startTime: "08:00", endTime: "19:30" });
});
