import { expect, test, type Browser, type Page } from "@playwright/test";
import { openCustomerPhone } from "./support/phone";
import { apiToken, logIn, newStamp, pairSimulator, post, signUpCompany, simulatorLink, type Person } from "./support/world";

/**
 * Issue 4: two browser contexts (an admin and an attendant of queue B) plus the customer's phone on
 * /simulator (the connection's secret link, no sign-in). The customer writes; the admin sees the pending
 * ticket appear live, accepts it and transfers it to queue B; the queue-B attendant sees it arrive live.
 */
const stamp = newStamp();
const owner = { name: `Ótica ${stamp}`, email: `dono-${stamp}@otica.test`, password: "segredo-123" };
const attendant = { name: `Bruno ${stamp}`, email: `bruno-${stamp}@otica.test`, password: "senha-123" };
const customer = { number: "5511987650001", name: `Cliente ${stamp}` };
const queueA = { name: `Vendas ${stamp}`, color: "#2E7D32" };
const queueB = { name: `Suporte ${stamp}`, color: "#1565C0" };

let simulatorUrl = "";

/** Each person in a browser of their own, so their sessions and sockets are independent. */
async function login(browser: Browser, who: Person): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await logIn(page, who);
  return page;
}

test.beforeAll(async ({ request }) => {
  await signUpCompany(request, owner);
  // Everything the admin prepares through the API happens before its browser login (which ends this session).
  const token = await apiToken(request, owner);
  const a = await post(request, token, "/api/queue", queueA);
  const b = await post(request, token, "/api/queue", queueB);
  await post(request, token, "/api/users", { ...attendant, profile: "user", queueIds: [b.id] });
  // The connection serves queue A only: a customer's ticket goes straight to Vendas.
  const connectionId = await pairSimulator(request, token, { queueIds: [a.id] });
  simulatorUrl = (await simulatorLink(request, token, connectionId)).url;
});

test("a customer writes on /simulator; the admin accepts and transfers the ticket to queue B; B's attendant sees it", async ({ browser }) => {
  const admin = await login(browser, owner);
  await admin.goto("/tickets");
  await admin.getByRole("tab", { name: /Aguardando/ }).click();
  const adminPending = admin.getByRole("list", { name: "Aguardando" });

  const bruno = await login(browser, attendant);
  await bruno.goto("/tickets");
  await bruno.getByRole("tab", { name: /Aguardando/ }).click();
  const brunoPending = bruno.getByRole("list", { name: "Aguardando" });
  await admin.waitForTimeout(500); // socket handshakes

  // The customer, on the simulator's secret link (no sign-in), adds their phone and writes.
  const { context: phoneContext, chat } = await openCustomerPhone(browser, simulatorUrl, customer);
  await chat.getByRole("textbox", { name: "Mensagem do cliente" }).fill("Meus óculos quebraram, vocês consertam?");
  await chat.getByRole("textbox", { name: "Mensagem do cliente" }).press("Enter");
  await expect(chat.getByRole("log").getByText("Meus óculos quebraram, vocês consertam?")).toBeVisible();

  // The admin sees it live in Aguardando, in queue A; Bruno (queue B) does not.
  const row = adminPending.getByTestId("ticket-row").filter({ hasText: customer.name });
  await expect(row).toBeVisible();
  await expect(row).toContainText(queueA.name);
  await expect(brunoPending.getByText(customer.name)).toHaveCount(0);

  // Accept, then transfer to queue B without a user: back to pending, in B.
  await row.getByRole("button", { name: "Aceitar" }).click();
  await expect(admin).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
  await expect(admin.getByRole("log", { name: "Mensagens" }).getByText("Meus óculos quebraram, vocês consertam?")).toBeVisible();
  const header = admin.getByRole("region", { name: `Atendimento de ${customer.name}` });
  await header.getByRole("button", { name: "Opções do ticket" }).click();
  await admin.getByRole("menuitem", { name: "Transferir" }).click();
  const transfer = admin.getByRole("dialog", { name: "Transferir Ticket" });
  await transfer.getByRole("combobox", { name: "Fila" }).click();
  await admin.getByRole("option", { name: queueB.name }).click();
  await transfer.getByRole("button", { name: "Transferir" }).click();
  await expect(transfer).toBeHidden();
  await expect(admin).toHaveURL(/\/tickets$/);

  // Bruno sees the ticket arrive live in his Aguardando list, in queue B, and can accept it.
  const brunoRow = brunoPending.getByTestId("ticket-row").filter({ hasText: customer.name });
  await expect(brunoRow).toBeVisible();
  await expect(brunoRow).toContainText(queueB.name);
  await brunoRow.getByRole("button", { name: "Aceitar" }).click();
  await expect(bruno).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
  await expect(bruno.getByRole("log", { name: "Mensagens" }).getByText("Meus óculos quebraram, vocês consertam?")).toBeVisible();

  // Bruno answers; the customer's phone shows the reply.
  const composer = bruno.getByRole("textbox", { name: "Mensagem" });
  await composer.fill("Consertamos sim! Pode trazer.");
  await composer.press("Enter");
  await expect(chat.getByRole("log").getByText(/Consertamos sim! Pode trazer\./)).toBeVisible();

  await phoneContext.close();
  await admin.context().close();
  await bruno.context().close();
});
