import { addDays, type InvoiceDTO, type PixChargeDTO } from "@balcao/shared";
import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { format } from "date-fns";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { SocketContext } from "../../api/SocketProvider";
import { fakeSocket } from "../connections/testSocket";
import { PRELOAD_TIMEOUT_MS, preloadPages } from "../../test/lazyPages";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage, renderRoutes } from "../../test/utils";
import { routes } from "../../app/router";
import InvoicesPage from "./InvoicesPage";
import SubscriptionPage from "./SubscriptionPage";
import { usePaymentRealtime } from "./api";

const today = format(new Date(), "yyyy-MM-dd");
const invoice = (overrides: Partial<InvoiceDTO>): InvoiceDTO => ({
  id: 1,
  detail: "Plano Pro",
  value: 99.9,
  dueDate: addDays(today, 5),
  status: "open",
  paidAt: null,
  recurrence: "MENSAL",
  createdAt: "2026-01-01T00:00:00.000Z",
  ...overrides,
});
const invoices = [
  invoice({ id: 3, dueDate: addDays(today, 5) }),
  invoice({ id: 2, dueDate: addDays(today, -2) }),
  invoice({ id: 1, dueDate: addDays(today, -32), status: "paid", paidAt: "2026-01-01T00:00:00.000Z" }),
];
const charge: PixChargeDTO = {
  invoiceId: 3,
  txid: "BLC0000003abcdefghijklmnopqrstu",
  provider: "sandbox",
  status: "ATIVA",
  valor: { original: "99.90" },
  qrcode: { qrcode: "00020101021226850014br.gov.bcb.pix2563pix.example/qr/v2/abc5204000053039865802BR5906Balcao6009Sao Paulo62070503***6304ABCD" },
  calendario: { criacao: "2026-01-01T00:00:00.000Z", expiracao: 3600 },
};
const admin = makeUser({ profile: "admin", company: { ...makeUser().company, planId: 7 } });
const plans = [{ id: 7, name: "Plano Pro", users: 10, connections: 3, queues: 5, value: 99.9 }];

function renderInvoices() {
  const fetch = mockFetch({
    "GET /api/invoices/all": () => jsonResponse(200, { list: invoices, hasMore: false }),
    "GET /api/plans/list": () => jsonResponse(200, plans),
    "POST /api/subscription": () => jsonResponse(201, charge),
  });
  const { socket, emit } = fakeSocket();
  renderPage(
    <SocketContext.Provider value={socket}>
      <InvoicesPage />
    </SocketContext.Provider>,
    { session: fakeSession(admin), path: "/financeiro" },
  );
  return { ...fetch, emit };
}

afterEach(() => vi.useRealTimers());

describe("InvoicesPage", () => {
  it("lists Id, Detalhes, Valor, Data Venc., Status with Pago / Vencido / Em Aberto, overdue rows tinted, PAGAR / PAGO", async () => {
    renderInvoices();
    const rows = await screen.findAllByTestId("invoice-row");
    expect(rows.map((r) => r.getAttribute("data-status"))).toEqual(["open", "overdue", "paid"]);
    for (const header of ["Id", "Detalhes", "Valor", "Data Venc.", "Status", "Ação"])
      expect(screen.getByRole("columnheader", { name: header })).toBeInTheDocument();
    expect(within(rows[0]!).getByText("Em Aberto")).toBeInTheDocument();
    expect(within(rows[0]!).getByText(/R\$\s99,90/)).toBeInTheDocument();
    expect(within(rows[1]!).getByText("Vencido")).toBeInTheDocument();
    expect(getComputedStyle(rows[1]!).backgroundColor).not.toBe(getComputedStyle(rows[0]!).backgroundColor);
    expect(within(rows[2]!).getByText("Pago")).toBeInTheDocument();
    expect(within(rows[2]!).getByRole("button", { name: "PAGO" })).toBeDisabled();
    expect(within(rows[0]!).getByRole("button", { name: "Pagar a fatura 3" })).toBeEnabled();
  });

  it("checks out: starts at Personalizar without back/next, reviews, pays, shows the Pix and copies it for 1 s", async () => {
    const { calls, emit } = renderInvoices();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    await userEvent.click(await screen.findByRole("button", { name: "Pagar a fatura 3" }));
    const dialog = await screen.findByRole("dialog", { name: "Falta pouco!" });
    for (const step of ["Dados", "Personalizar", "Revisar"]) expect(within(dialog).getByText(step)).toBeInTheDocument();
    expect(await within(dialog).findByText("Usuários: 10")).toBeInTheDocument();
    expect(within(dialog).queryByRole("button", { name: "VOLTAR" })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole("button", { name: "PRÓXIMO" })).not.toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole("button", { name: "Continuar com este plano" }));
    expect(within(dialog).getByTestId("checkout-review")).toHaveTextContent(/Total: R\$\s99,90/);
    expect(within(dialog).getByRole("button", { name: "VOLTAR" })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole("button", { name: "PAGAR" }));

    expect(await within(dialog).findByTestId("pix-total")).toHaveTextContent(/Total: R\$\s99,90/);
    const post = calls.find((c) => c.method === "POST")!;
    expect(post.body).toEqual({ invoiceId: 3, price: 99.9 });
    expect(within(dialog).getByRole("img", { name: /QR Code Pix/ })).toBeInTheDocument();
    expect(await screen.findByText("Assinatura realizada com sucesso!, aguardando a realização do pagamento")).toBeInTheDocument();

    vi.useFakeTimers({ shouldAdvanceTime: true });
    await userEvent.click(within(dialog).getByRole("button", { name: "Copiar código QR" }));
    expect(writeText).toHaveBeenCalledWith(charge.qrcode.qrcode);
    expect(within(dialog).getByRole("button", { name: "Copiado" })).toBeInTheDocument();
    await act(async () => {
      vi.advanceTimersByTime(1_000);
    });
    expect(within(dialog).getByRole("button", { name: "Copiar código QR" })).toBeInTheDocument();
    // Another invoice's payment does not close this one; its own does.
    emit("payment", { action: "CONCLUIDA", company: { id: 10, dueDate: "2027-01-01" }, invoiceId: 99 });
    expect(within(dialog).queryByText("Pagamento confirmado!")).not.toBeInTheDocument();
    emit("payment", { action: "CONCLUIDA", company: { id: 10, dueDate: "2027-01-01" }, invoiceId: 3 });
    expect(within(dialog).getByText("Pagamento confirmado!")).toBeInTheDocument();
  });

  it("validates the billing data step with the spec's texts and sends it", async () => {
    const { calls } = renderInvoices();
    await userEvent.click(await screen.findByRole("button", { name: "Pagar a fatura 3" }));
    const dialog = await screen.findByRole("dialog", { name: "Falta pouco!" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Continuar com este plano" }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Informar dados de cobrança" }));
    await userEvent.clear(within(dialog).getByLabelText("País"));
    await userEvent.click(within(dialog).getByRole("button", { name: "PRÓXIMO" }));
    for (const text of [
      "O nome completo é obrigatório",
      "O Endereço é obrigatório",
      "Cidade é obrigatória",
      "CEP é obrigatório",
      "País é obrigatório",
    ])
      expect(await within(dialog).findByText(text)).toBeInTheDocument();

    const fill = async (label: string, value: string) => {
      const field = within(dialog).getByLabelText(label);
      await userEvent.clear(field);
      await userEvent.click(field);
      await userEvent.paste(value);
    };
    await fill("Nome completo", "Ana Souza");
    await fill("Endereço", "Rua A, 1");
    await fill("Cidade", "Recife");
    await fill("CEP", "123");
    await fill("País", "Brasil");
    await userEvent.click(within(dialog).getByRole("button", { name: "PRÓXIMO" }));
    expect(await within(dialog).findByText("CEP inválido")).toBeInTheDocument();
    await fill("CEP", "50010-000");
    await userEvent.click(within(dialog).getByRole("button", { name: "PRÓXIMO" }));
    await userEvent.click(await within(dialog).findByRole("button", { name: "Continuar com este plano" }));
    expect(within(dialog).getByTestId("checkout-review")).toHaveTextContent("Ana Souza — Rua A, 1, Recife — 50010000 — Brasil");
    await userEvent.click(within(dialog).getByRole("button", { name: "PAGAR" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(calls.find((c) => c.method === "POST")!.body).toMatchObject({
      invoiceId: 3,
      firstName: "Ana Souza",
      address2: "Rua A, 1",
      zipcode: "50010000",
      country: "Brasil",
    });
  });
});

describe("SubscriptionPage", () => {
  it("shows the trial days left and the billing email; 'Assine Agora!' opens the checkout of the open invoice", async () => {
    mockFetch({
      "GET /api/invoices/all": () => jsonResponse(200, { list: invoices, hasMore: false }),
      "GET /api/plans/list": () => jsonResponse(200, plans),
    });
    const user = makeUser({
      profile: "admin",
      company: { ...admin.company, email: "conta@acme.com", trialExpiration: addDays(today, 2), dueDate: addDays(today, 2) },
    });
    renderPage(<SubscriptionPage />, { session: fakeSession(user), path: "/subscription" });
    expect(screen.getByTestId("subscription-status")).toHaveTextContent("Você está no período de teste. Restam 2 dias");
    expect(screen.getByLabelText("E-mail de cobrança")).toHaveValue("conta@acme.com");
    const subscribe = screen.getByRole("button", { name: "Assine Agora!" });
    await waitFor(() => expect(subscribe).toBeEnabled());
    await userEvent.click(subscribe);
    const dialog = await screen.findByRole("dialog", { name: "Falta pouco!" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Continuar com este plano" }));
    // The oldest open invoice: the overdue one.
    expect(within(dialog).getByTestId("checkout-review")).toHaveTextContent("#2");
  });
});

describe("payment event", () => {
  function Probe() {
    usePaymentRealtime();
    return null;
  }

  it("shows the renewal toast at once and returns to / with the new due date after 4 s", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mockFetch({});
    const { socket, emit } = fakeSocket();
    const setUser = vi.fn();
    renderPage(
      <SocketContext.Provider value={socket}>
        <Probe />
      </SocketContext.Provider>,
      { session: fakeSession(admin, { setUser }), path: "/financeiro", routePath: "/financeiro" },
    );
    emit("payment", { action: "CONCLUIDA", company: { id: 10, dueDate: "2027-03-15" }, invoiceId: 3 });
    expect(await screen.findByText("Sua licença foi renovada até 15/03/2027!")).toBeInTheDocument();
    expect(screen.queryByTestId("location")).not.toBeInTheDocument();
    await act(async () => {
      vi.advanceTimersByTime(4_000);
    });
    expect(await screen.findByTestId("location")).toHaveTextContent("/");
    expect(setUser).toHaveBeenCalledWith(
      expect.objectContaining({ company: expect.objectContaining({ dueDate: "2027-03-15", trialExpiration: null }) }),
    );
  });
});

describe("billing-only session", () => {
  beforeAll(() => preloadPages(() => import("../auth/LoginRoute")), PRELOAD_TIMEOUT_MS);

  it("an expired company's admin logs in to the finance page, other pages lead back to it, and a 402 keeps the session", async () => {
    const expired = makeUser({ profile: "admin", company: { ...admin.company, dueDate: addDays(today, -3) } });
    mockFetch({
      "POST /api/auth/login": () => jsonResponse(200, { token: "t", user: expired }),
      "GET /api/invoices/all": () => jsonResponse(200, { list: [invoice({ id: 5, dueDate: addDays(today, -3) })], hasMore: false }),
      "GET /api/plans/list": () => jsonResponse(200, plans),
      "GET /api/tickets": () => jsonResponse(402, { error: "ERR_SUBSCRIPTION_EXPIRED", meta: { dueDate: addDays(today, -3) } }),
    });
    const { router } = renderRoutes(routes, { path: "/login" });
    await userEvent.type(await screen.findByLabelText("E-mail"), "dona@loja.test");
    await userEvent.type(screen.getByLabelText("Senha"), "segredo{Enter}");
    expect(await screen.findByTestId("billing-expired")).toBeInTheDocument();
    expect(router.location().pathname).toBe("/financeiro");
    expect(await screen.findByText(/Sua assinatura venceu em/)).toBeInTheDocument();
    expect((await screen.findAllByTestId("invoice-row"))[0]).toHaveAttribute("data-status", "overdue");
    // No menu of the full app; the tickets page leads back to the finance page.
    expect(screen.queryByRole("navigation", { name: "Menu principal" })).not.toBeInTheDocument();
    await act(async () => {
      router.navigate("/tickets");
    });
    await waitFor(() => expect(router.location().pathname).toBe("/financeiro"));
    // A locked API answering 402 does not end a billing-only session.
    const { api } = await import("../../api/client");
    await expect(api.get("/tickets")).rejects.toMatchObject({ status: 402 });
    expect(localStorage.getItem("token")).toBe("t");
    await userEvent.click(screen.getByRole("tab", { name: "Assinatura" }));
    await waitFor(() => expect(router.location().pathname).toBe("/subscription"));
  });
});
