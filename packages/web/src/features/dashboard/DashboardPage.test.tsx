import type { DashboardResponse, ReportsResponse } from "@balcao/shared";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { SocketContext } from "../../api/SocketProvider";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage, type FetchCall } from "../../test/utils";
import { fakeSocket } from "../connections/testSocket";
import DashboardPage from "./DashboardPage";
import { localToday } from "./format";

// The chart library draws SVG through ResizeObserver, which jsdom lacks; the chart is a thin wrapper
// around it (TodayChart.tsx), so the page is tested with the hours it hands over.
vi.mock("./TodayChart", () => ({
  default: ({ hours }: { hours: number[] }) => (
    <ol data-testid="chart">
      {hours.map((n, h) => (
        <li key={h}>{n}</li>
      ))}
    </ol>
  ),
}));

const admin = makeUser({ id: 1, profile: "admin" });

function response(overrides: Partial<DashboardResponse> = {}): DashboardResponse {
  const hours = Array.from({ length: 24 }, () => 0);
  hours[9] = 3;
  hours[14] = 2;
  return {
    counters: { supportPending: 4, supportHappening: 2, supportFinished: 17, leads: 5, avgSupportTime: 75.4, avgWaitTime: 12.5 },
    attendants: [
      { id: 2, name: "Ana", rating: 2.5, ratings: 4, avgSupportTime: 30, tickets: 10, online: true },
      { id: 3, name: "Bruno", rating: null, ratings: 0, avgSupportTime: null, tickets: 0, online: false },
    ],
    period: { from: "2025-03-01", to: null, timeZone: "America/Sao_Paulo" },
    today: { date: "2025-03-10", total: 5, hours },
    company: { dueDate: "2025-03-13" },
    ...overrides,
  };
}

const reports: ReportsResponse = {
  period: { from: "2025-03-01", to: null, timeZone: "America/Sao_Paulo" },
  queues: [
    { id: 1, name: "Vendas", color: "#2E7D32", tickets: 9, avgWaitTime: 5, avgFirstResponse: 7.5, avgSupportTime: 20, rating: 3, ratings: 2 },
    { id: null, name: null, color: null, tickets: 1, avgWaitTime: null, avgFirstResponse: null, avgSupportTime: 9, rating: null, ratings: 0 },
  ],
  attendants: [{ id: 2, name: "Ana", tickets: 10, avgWaitTime: 4, avgFirstResponse: 6, avgSupportTime: 30, rating: 2.5, ratings: 4 }],
};

const query = (call: FetchCall) => Object.fromEntries(new URL(call.url, "http://x").searchParams);

function renderDashboard(body: () => DashboardResponse = () => response()) {
  const fetch = mockFetch({
    "GET /api/dashboard": () => jsonResponse(200, body()),
    "GET /api/dashboard/reports": () => jsonResponse(200, reports),
    "GET /api/dashboard/reports/export": () =>
      new Response("\uFEFFFila;Atendimentos\r\n", {
        status: 200,
        headers: { "Content-Type": "text/csv", "Content-Disposition": 'attachment; filename="relatorio-queues.csv"' },
      }),
  });
  const { socket, emit } = fakeSocket();
  const utils = renderPage(
    <SocketContext.Provider value={socket}>
      <DashboardPage />
    </SocketContext.Provider>,
    { session: fakeSession(admin), path: "/" },
  );
  const dashboardCalls = () => fetch.calls.filter((c) => c.url.startsWith("/api/dashboard?"));
  return { ...fetch, ...utils, emit, dashboardCalls };
}

describe("DashboardPage", () => {
  it("asks for the month so far and shows the due date, today's chart, the cards and the attendants", async () => {
    const { dashboardCalls } = renderDashboard();
    await waitFor(() => expect(screen.getByTestId("today-title")).toHaveTextContent("Atendimentos hoje: 5"));
    expect(query(dashboardCalls()[0]!)).toEqual({ date_from: `${localToday().slice(0, 8)}01` });
    const bars = within(await screen.findByTestId("chart")).getAllByRole("listitem");
    expect(bars).toHaveLength(24);
    expect(bars[9]).toHaveTextContent("3");
    expect(screen.getByTestId("due-date")).toHaveTextContent("13/03/2025");
    expect(screen.getByTestId("due-date")).toHaveTextContent("Faltam 3 dias");
    expect(screen.getByTestId("counter-supportHappening")).toHaveTextContent("2");
    expect(screen.getByTestId("counter-supportPending")).toHaveTextContent("4");
    expect(screen.getByTestId("counter-supportFinished")).toHaveTextContent("17");
    expect(screen.getByTestId("counter-leads")).toHaveTextContent("5");
    expect(screen.getByTestId("counter-avgSupportTime")).toHaveTextContent("1 h 15 min");
    expect(screen.getByTestId("counter-avgWaitTime")).toHaveTextContent("12,5 min");
    expect(screen.getByTestId("period")).toHaveTextContent("De 01/03/2025 até hoje");

    const table = screen.getByRole("table", { name: "Atendentes" });
    const [, ana, bruno] = within(table).getAllByRole("row");
    expect(ana).toHaveTextContent("Ana");
    expect(ana).toHaveTextContent("2,5 de 3 (4)");
    expect(ana).toHaveTextContent("30 min");
    expect(ana).toHaveTextContent("Online");
    expect(bruno).toHaveTextContent("Sem avaliações");
    expect(bruno).toHaveTextContent("—");
    expect(bruno).toHaveTextContent("Offline");
  });

  it("a period replaces the dates; clearing everything says 'Parametrize o filtro' and hides the indicators", async () => {
    const user = userEvent.setup();
    const { dashboardCalls } = renderDashboard();
    await waitFor(() => expect(screen.getByTestId("counter-supportFinished")).toHaveTextContent("17"));
    await user.click(screen.getByRole("combobox", { name: "Período" }));
    await user.click(await screen.findByRole("option", { name: "Últimos 7 dias" }));
    await waitFor(() => expect(query(dashboardCalls().at(-1)!)).toEqual({ days: "7" }));
    expect(screen.getByLabelText("Data inicial")).toHaveValue("");

    await user.click(screen.getByRole("button", { name: "Limpar filtro" }));
    expect(await screen.findByText("Parametrize o filtro")).toBeInTheDocument();
    expect(screen.queryByTestId("counter-supportFinished")).not.toBeInTheDocument();
    expect(screen.queryByRole("table", { name: "Atendentes" })).not.toBeInTheDocument();
    // Today's chart and the due date stay, from the last day.
    await waitFor(() => expect(query(dashboardCalls().at(-1)!)).toEqual({ days: "1" }));
    expect(screen.getByTestId("today-title")).toHaveTextContent("Atendimentos hoje: 5");
  });

  it("a start date after the end date is flagged and not sent", async () => {
    const user = userEvent.setup();
    const { dashboardCalls } = renderDashboard();
    await waitFor(() => expect(screen.getByTestId("counter-supportFinished")).toHaveTextContent("17"));
    const to = screen.getByLabelText("Data final");
    await user.type(to, "2020-01-01");
    expect(await screen.findByText("A data inicial deve ser igual ou anterior à data final.")).toBeInTheDocument();
    expect(dashboardCalls().some((c) => query(c).date_to === "2020-01-01")).toBe(false);
  });

  it("refreshes on ticket events, once per burst", async () => {
    let finished = 17;
    const { emit, dashboardCalls } = renderDashboard(() => response({ counters: { ...response().counters, supportFinished: finished } }));
    await waitFor(() => expect(screen.getByTestId("counter-supportFinished")).toHaveTextContent("17"));
    const before = dashboardCalls().length;
    finished = 18;
    emit("ticket", { action: "update", ticket: { id: 1 } });
    emit("ticket", { action: "update", ticket: { id: 1 } });
    emit("ticket", { action: "delete", ticketId: 1 });
    await waitFor(() => expect(screen.getByTestId("counter-supportFinished")).toHaveTextContent("18"));
    expect(dashboardCalls().length).toBe(before + 1);
  });

  it("reports: per queue and per attendant, with CSV and XLSX exports of the same period", async () => {
    const user = userEvent.setup();
    const createObjectURL = vi.fn(() => "blob:report");
    vi.stubGlobal("URL", Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const { calls } = renderDashboard();
    await waitFor(() => expect(screen.getByTestId("counter-supportFinished")).toHaveTextContent("17"));
    await user.click(screen.getByRole("tab", { name: "Relatórios" }));
    const queues = await screen.findByRole("table", { name: "Por fila" });
    const [, vendas, none] = within(queues).getAllByRole("row");
    expect(vendas).toHaveTextContent("Vendas");
    expect(vendas).toHaveTextContent("7,5 min");
    expect(none).toHaveTextContent("SEM FILA");
    expect(within(screen.getByRole("table", { name: "Por atendente" })).getAllByRole("row")[1]).toHaveTextContent("Ana");

    await user.click(screen.getByRole("button", { name: "Exportar Por fila em CSV" }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    const exportCall = calls.find((c) => c.url.startsWith("/api/dashboard/reports/export"))!;
    expect(query(exportCall)).toEqual({ date_from: `${localToday().slice(0, 8)}01`, format: "csv", table: "queues", lang: "pt" });
    expect(exportCall.headers.Authorization).toMatch(/^Bearer /);
  });
});
