import type { Browser, BrowserContext, Locator, Page } from "@playwright/test";

/** The customer whose phone the simulator page adds. */
export interface Customer {
  number: string;
  name: string;
}

export interface CustomerPhone {
  context: BrowserContext;
  page: Page;
  /** The customer's conversation with the company. */
  chat: Locator;
  /** The messages of that conversation, both directions. */
  log: Locator;
  /** Messages the company sent to the customer. */
  fromCompany: Locator;
  /** What the customer types. */
  input: Locator;
}

/**
 * The customer's phone on the simulator's secret link, in a browser context of its own so it has no session
 * of the company's people.
 */
export async function openCustomerPhone(browser: Browser, simulatorUrl: string, customer: Customer): Promise<CustomerPhone> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(simulatorUrl);
  const addForm = page.getByRole("form", { name: "Adicionar cliente" });
  await addForm.getByLabel("Número").fill(customer.number);
  await addForm.getByLabel("Nome (opcional)").fill(customer.name);
  await addForm.getByRole("button", { name: "Adicionar telefone" }).click();
  const chat = page.getByRole("region", { name: `Conversa de ${customer.name}` });
  const log = chat.getByRole("log", { name: "Mensagens do telefone" });
  return {
    context,
    page,
    chat,
    log,
    fromCompany: log.locator('[data-testid="simulator-message"][data-direction="in"]'),
    input: chat.getByRole("textbox", { name: "Mensagem do cliente" }),
  };
}
