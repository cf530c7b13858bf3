import { expect, test } from "@playwright/test";
import { logIn, newStamp, pairSimulator, signUpAndLogIn, simulatorLink, waitFor } from "./support/world";

/**
 * The attendant's main path (issues 4 and 5): a customer writes through the simulator's HTTP API, the
 * ticket appears live in Aguardando, the attendant accepts it, answers with Enter (the reply shows its
 * ack) and resolves it.
 */
const stamp = newStamp();
const owner = { name: `Mercearia ${stamp}`, email: `dono-${stamp}@mercearia.test`, password: "segredo-123" };
const customer = { number: "5511987654321", name: `Cliente ${stamp}` };

let connectionId = 0;
/** The connection's secret simulator link key: drives the customer side without a session (the browser login ends the API one). */
let simKey = "";

test.beforeAll(async ({ request }) => {
  const token = await signUpAndLogIn(request, owner, "first");
  connectionId = await pairSimulator(request, token);
  simKey = encodeURIComponent((await simulatorLink(request, token, connectionId)).key);
});

test("a customer message appears live, is accepted, answered with an ack and resolved", async ({ page, request }) => {
  await logIn(page, owner, { landsOn: /\/$/ });

  await page.goto("/tickets");
  await expect(page.getByText("Selecione um ticket para começar a conversar")).toBeVisible();
  await page.getByRole("tab", { name: /Aguardando/ }).click();
  const pending = page.getByRole("list", { name: "Aguardando" });
  await expect(pending.getByText(customer.name)).toHaveCount(0);
  await page.waitForTimeout(500); // the socket handshake

  // The customer writes: the ticket appears live in Aguardando, with its unread count.
  const sent = await request.post(`/api/simulator/${connectionId}/phones/${customer.number}/messages?key=${simKey}`, {
    data: { type: "text", body: "Olá, vocês têm pão *integral*?", name: customer.name },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  const row = pending.getByTestId("ticket-row").filter({ hasText: customer.name });
  await expect(row).toBeVisible();
  // The list preview shows the text without WhatsApp markup (issue 16); the bubble renders it.
  await expect(row.getByTestId("ticket-last-message")).toHaveText("Olá, vocês têm pão integral?");
  await expect(row.getByTestId("ticket-unread")).toContainText("1");
  await expect(page.getByRole("tab", { name: /Aguardando/ })).toContainText("1");

  // Accept: the conversation opens with the customer's message (WhatsApp formatting applied).
  await row.getByRole("button", { name: "Aceitar" }).click();
  await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
  const log = page.getByRole("log", { name: "Mensagens" });
  await expect(log.getByText("Olá, vocês têm pão")).toBeVisible();
  await expect(log.locator("strong", { hasText: "integral" })).toBeVisible();
  const header = page.getByRole("region", { name: `Atendimento de ${customer.name}` });
  await expect(header.getByTestId("ticket-status")).toContainText("Em atendimento");
  // The row moved live from Aguardando to Atendendo.
  await expect(page.getByRole("list", { name: "Atendendo" }).getByText(customer.name)).toBeVisible();

  // Reply with Enter: the message shows at once, right-aligned, and settles with an ack.
  const composer = page.getByRole("textbox", { name: "Mensagem" });
  await composer.fill("Temos sim! Quer que separe um?");
  await composer.press("Enter");
  await expect(composer).toHaveValue("");
  const mine = log.locator('[data-testid="message"][data-from-me="true"]').filter({ hasText: "Temos sim! Quer que separe um?" });
  await expect(mine).toHaveCount(1);
  await expect(mine.locator("[data-ack=sent], [data-ack=delivered], [data-ack=read]")).toBeVisible();

  // The customer's phone received it.
  const phone = await waitFor(
    async () =>
      (await (await request.get(`/api/simulator/${connectionId}/phones/${customer.number}/messages?key=${simKey}`)).json()) as {
        direction: string;
        body: string;
      }[],
    (list) => list.some((m) => m.direction === "in" && m.body.includes("Temos sim!")),
  );
  expect(phone.some((m) => m.direction === "in" && m.body.includes("Temos sim!"))).toBeTruthy();

  // Resolve: back to /tickets, and the ticket is listed under Resolvidos.
  await header.getByRole("button", { name: "Finalizar" }).click();
  await expect(page).toHaveURL(/\/tickets$/);
  await page.getByRole("tab", { name: /Resolvidos/ }).click();
  await expect(page.getByRole("list", { name: "Resolvidos" }).getByText(customer.name)).toBeVisible();
});
