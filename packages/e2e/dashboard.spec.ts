import { expect, test } from "@playwright/test";
import { bearer, logIn, newStamp, pairSimulator, signUpAndLogIn, simulatorLink } from "./support/world";

/**
 * Issue 14: an admin keeps the dashboard open while a customer writes through the simulator and an attendant
 * (who lands on /tickets, not on the dashboard) accepts, answers and resolves the ticket in another browser:
 * the counters, today's chart title and the attendants table move live, without a reload. The chart library
 * is fetched by the dashboard only.
 */
const stamp = newStamp();
const owner = { name: `Padaria ${stamp}`, email: `dono-${stamp}@padaria.test`, password: "segredo-123" };
const attendant = { name: `Rita ${stamp}`, email: `rita-${stamp}@padaria.test`, password: "senha-123" };
const customer = { number: "5511987650014", name: `Cliente ${stamp}` };

let connectionId = 0;
/** The simulator link key drives the customer side without a session (the owner's browser login ends the API one). */
let simKey = "";

test.beforeAll(async ({ request }) => {
  const token = await signUpAndLogIn(request, owner);
  const user = await request.post("/api/users", { headers: bearer(token), data: { ...attendant, profile: "user", queueIds: [] } });
  expect(user.ok(), await user.text()).toBeTruthy();
  connectionId = await pairSimulator(request, token);
  simKey = encodeURIComponent((await simulatorLink(request, token, connectionId)).key);
});

test("a ticket served and closed through the simulator moves the counters on the open dashboard", async ({ browser, page, request }) => {
  // The admin lands on the dashboard: month so far, nothing yet.
  const chartRequests: string[] = [];
  page.on("request", (r) => {
    if (/TodayChart/.test(r.url())) chartRequests.push(r.url());
  });
  await logIn(page, owner);
  await expect(page).toHaveURL(/\/$/);
  const counter = (key: string) => page.getByTestId(`counter-${key}`);
  await expect(page.getByTestId("today-title")).toHaveText("Atendimentos hoje: 0");
  await expect(counter("supportFinished")).toHaveText("0");
  await expect(counter("supportPending")).toHaveText("0");
  await expect(page.getByText("Parametrize o filtro")).toHaveCount(0);
  await expect(page.getByRole("img", { name: "Atendimentos por hora de hoje" }).locator("svg").first()).toBeVisible();
  expect(chartRequests.length, "the dashboard loads its chart chunk").toBeGreaterThan(0);
  const attendants = page.getByRole("table", { name: "Atendentes" });
  const ritaRow = attendants.getByRole("row").filter({ hasText: attendant.name });
  await expect(ritaRow).toContainText("Offline");
  await page.waitForTimeout(500); // the socket handshake

  // The attendant signs in elsewhere: a profile-user lands on /tickets, and no chart code is fetched there.
  const desk = await browser.newContext();
  const rita = await desk.newPage();
  const ritaChart: string[] = [];
  rita.on("request", (r) => {
    if (/TodayChart|x-charts/.test(r.url())) ritaChart.push(r.url());
  });
  await logIn(rita, attendant);
  await expect(rita).toHaveURL(/\/tickets$/);
  await rita.goto("/");
  await expect(rita).toHaveURL(/\/tickets$/);
  await rita.getByRole("tab", { name: /Aguardando/ }).click();
  await rita.waitForTimeout(500);

  // The customer writes: waiting +1, a new contact, today's first ticket.
  const sent = await request.post(`/api/simulator/${connectionId}/phones/${customer.number}/messages?key=${simKey}`, {
    data: { type: "text", body: "Bom dia, tem pão de queijo?", name: customer.name },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  await expect(counter("supportPending")).toHaveText("1");
  await expect(counter("leads")).toHaveText("1");
  await expect(page.getByTestId("today-title")).toHaveText("Atendimentos hoje: 1");
  await expect(counter("supportHappening")).toHaveText("0");

  // Accepted: in progress, nobody waiting.
  const row = rita.getByRole("list", { name: "Aguardando" }).getByTestId("ticket-row").filter({ hasText: customer.name });
  await row.getByRole("button", { name: "Aceitar" }).click();
  await expect(rita).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
  await expect(counter("supportHappening")).toHaveText("1");
  await expect(counter("supportPending")).toHaveText("0");
  await expect(ritaRow).toContainText("Online");

  const composer = rita.getByRole("textbox", { name: "Mensagem" });
  await composer.fill("Bom dia! Temos sim, saindo do forno.");
  await composer.press("Enter");
  await expect(composer).toHaveValue("");

  // Resolved: finished +1, credited to the attendant, with a support time.
  await rita
    .getByRole("region", { name: `Atendimento de ${customer.name}` })
    .getByRole("button", { name: "Finalizar" })
    .click();
  await expect(rita).toHaveURL(/\/tickets$/);
  await expect(counter("supportFinished")).toHaveText("1");
  await expect(counter("supportHappening")).toHaveText("0");
  await expect(counter("avgSupportTime")).toHaveText(/\d+(,\d)? min/);
  await expect(counter("avgWaitTime")).toHaveText(/\d+(,\d)? min/);
  await expect(ritaRow.getByRole("cell").nth(3)).toHaveText("1");

  // The reports tab counts the same ticket for the attendant.
  await page.getByRole("tab", { name: "Relatórios" }).click();
  const byAttendant = page.getByRole("table", { name: "Por atendente" });
  await expect(byAttendant.getByRole("row").filter({ hasText: attendant.name }).getByRole("cell").nth(1)).toHaveText("1");

  expect(ritaChart, "no chart code on the tickets page").toEqual([]);
  await desk.close();
});
