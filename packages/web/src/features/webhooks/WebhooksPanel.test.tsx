import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { WebhookDeliveryDTO, WebhookDTO } from "@balcao/shared";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import { WebhooksPanel } from "./WebhooksPanel";

const hook: WebhookDTO = {
  id: 3,
  url: "https://crm.example.com/hooks/balcao",
  events: ["message.received", "ticket.closed"],
  secret: "a1b2c3",
  active: true,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
};
const delivery = (overrides: Partial<WebhookDeliveryDTO>): WebhookDeliveryDTO => ({
  id: 10,
  webhookId: 3,
  event: "message.received",
  status: "delivered",
  attempts: 1,
  lastStatusCode: 200,
  lastResponse: "ok",
  lastError: null,
  lastAttemptAt: "2026-01-01T10:00:00.000Z",
  deliveredAt: "2026-01-01T10:00:00.000Z",
  createdAt: "2026-01-01T10:00:00.000Z",
  ...overrides,
});

afterEach(() => vi.unstubAllGlobals());

describe("WebhooksPanel", () => {
  it("adds a webhook with its events and shows the server's SSRF refusal on the URL field", async () => {
    let attempt = 0;
    const { calls } = mockFetch({
      "GET /api/webhooks": () => jsonResponse(200, attempt > 1 ? [hook] : []),
      "POST /api/webhooks": () =>
        ++attempt === 1 ? jsonResponse(400, { error: "ERR_WEBHOOK_PRIVATE_TARGET" }) : jsonResponse(201, { ...hook, id: 4 }),
    });
    renderPage(<WebhooksPanel />, { session: fakeSession(makeUser()) });
    expect(await screen.findByText("Nenhum webhook cadastrado.")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Adicionar webhook" }));
    const dialog = await screen.findByRole("dialog", { name: "Adicionar webhook" });
    const url = within(dialog).getByRole("textbox", { name: /URL/ });
    await userEvent.click(url);
    await userEvent.paste("http://10.0.0.5/hook");
    await userEvent.click(within(dialog).getByRole("checkbox", { name: /Mensagem recebida/ }));
    await userEvent.click(within(dialog).getByRole("checkbox", { name: /Atendimento encerrado/ }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Salvar" }));
    expect(await within(dialog).findByText(/aponta para uma rede privada ou local/)).toBeInTheDocument();

    await userEvent.clear(url);
    await userEvent.paste(hook.url);
    await userEvent.click(within(dialog).getByRole("button", { name: "Salvar" }));
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    const posts = calls.filter((c) => c.method === "POST");
    expect(posts[1]!.body).toEqual({ url: hook.url, events: ["message.received", "ticket.closed"], active: true });
    expect(await screen.findByRole("row", { name: new RegExp(hook.url) })).toBeInTheDocument();
  });

  it("shows the delivery log with the last answers and resends a delivery", async () => {
    const { calls } = mockFetch({
      "GET /api/webhooks": () => jsonResponse(200, [hook]),
      "GET /api/webhooks/3/deliveries": () =>
        jsonResponse(200, {
          deliveries: [
            delivery({ id: 11, status: "failed", attempts: 6, lastStatusCode: 503, lastResponse: "down", lastError: "HTTP 503" }),
            delivery({}),
          ],
          hasMore: false,
        }),
      "POST /api/webhooks/deliveries/11/resend": () => jsonResponse(200, delivery({ id: 11, status: "pending" })),
    });
    renderPage(<WebhooksPanel />, { session: fakeSession(makeUser()) });
    await userEvent.click(await screen.findByRole("button", { name: "Entregas" }));
    const log = await screen.findByRole("region", { name: `Entregas de ${hook.url}` });
    const rows = await within(log).findAllByTestId("webhook-delivery");
    expect(rows[0]).toHaveTextContent("Falhou");
    expect(rows[0]).toHaveTextContent("503 · HTTP 503 · down");
    expect(rows[1]).toHaveTextContent("Entregue");
    await userEvent.click(within(log).getByRole("button", { name: "Reenviar entrega 11" }));
    expect(await screen.findByText("Entrega reenviada.")).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "POST").map((c) => c.url)).toEqual(["/api/webhooks/deliveries/11/resend"]);
  });
});
