import type { NotificationDTO } from "@balcao/shared";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { act } from "react";
import { useLocation } from "react-router";
import { describe, expect, it } from "vitest";
import type { AppSocket } from "../../api/socket";
import { SocketContext } from "../../api/SocketProvider";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderRoutes } from "../../test/utils";
import { formatDateTime } from "../../app/format";
import { ConnectionAlertsBell } from "./ConnectionAlertsBell";

const alert = (id: number, name: string, overrides: Partial<NotificationDTO> = {}): NotificationDTO => ({
  id,
  connectionId: id * 10,
  name,
  status: "DISCONNECTED",
  reason: "loggedOut",
  at: "2026-11-24T12:05:00.000Z",
  read: false,
  ...overrides,
});

function fakeSocket() {
  const handlers = new Map<string, (payload: unknown) => void>();
  const socket = { on: (e: string, fn: (p: unknown) => void) => handlers.set(e, fn), off: (e: string) => handlers.delete(e) };
  return { socket: socket as unknown as AppSocket, emit: (e: string, p: unknown) => act(() => handlers.get(e)?.(p)) };
}

function Probe() {
  const location = useLocation();
  return <p data-testid="location">{`${location.pathname}${location.search}`}</p>;
}

function renderBell(profile: "admin" | "user", socket: AppSocket) {
  return renderRoutes(
    [
      {
        path: "/",
        element: (
          <SocketContext.Provider value={socket}>
            <ConnectionAlertsBell />
          </SocketContext.Provider>
        ),
      },
      { path: "*", element: <Probe /> },
    ],
    { session: fakeSession(makeUser({ profile })) },
  );
}

describe("ConnectionAlertsBell", () => {
  it("counts unread alerts, lists name, status, reason and local time, marks all read, follows the live event and links to the health dialog", async () => {
    let notifications = [alert(2, "Vendas"), alert(1, "Suporte", { reason: "unreachable", status: "OPENING", read: true })];
    let unreadCount = 1;
    const { calls } = mockFetch({
      "GET /api/notifications": () => jsonResponse(200, { notifications, unreadCount, hasMore: false }),
      "PUT /api/notifications/read": () => {
        notifications = notifications.map((n) => ({ ...n, read: true }));
        unreadCount = 0;
        return jsonResponse(200, { lastReadId: 2 });
      },
    });
    const { socket, emit } = fakeSocket();
    renderBell("admin", socket);
    await waitFor(() => expect(screen.getByTestId("alerts-unread")).toHaveAttribute("data-count", "1"));
    await userEvent.click(screen.getByRole("button", { name: "Alertas de conexão: 1 não lido" }));
    const items = await screen.findAllByTestId("alert-item");
    expect(items.map((i) => i.getAttribute("data-unread"))).toEqual(["true", "false"]);
    expect(items[0]).toHaveTextContent("Vendas fora do ar");
    expect(items[0]).toHaveTextContent("Desconectado · Desconectado no celular");
    expect(items[0]).toHaveTextContent(formatDateTime("2026-11-24T12:05:00.000Z"));
    expect(items[1]).toHaveTextContent("Conectando · WhatsApp inacessível (rede)");

    await userEvent.click(screen.getByRole("button", { name: "Marcar todos como lidos" }));
    await waitFor(() => expect(screen.getByTestId("alerts-unread")).toHaveAttribute("data-count", "0"));
    expect(calls.filter((c) => c.method === "PUT" && c.url.endsWith("/api/notifications/read"))).toHaveLength(1);
    expect(screen.getByRole("button", { name: "Marcar todos como lidos" })).toBeDisabled();

    // A new alert arrives live: the bell refetches and counts it.
    notifications = [alert(3, "Recepção", { reason: "replaced" }), ...notifications];
    unreadCount = 1;
    emit("whatsappHealthAlert", {
      connectionId: 30,
      name: "Recepção",
      status: "DISCONNECTED",
      reason: "replaced",
      since: "",
      minutes: 5,
      needsScan: false,
    });
    await waitFor(() => expect(screen.getByTestId("alerts-unread")).toHaveAttribute("data-count", "1"));
    expect(await screen.findByText("Recepção fora do ar")).toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "Abrir a saúde de Recepção" }));
    expect(await screen.findByTestId("location")).toHaveTextContent("/connections?health=30");
  });

  it("is not shown to attendants (and asks the server nothing)", () => {
    const { calls } = mockFetch({});
    renderBell("user", fakeSocket().socket);
    expect(screen.queryByTestId("alerts-unread")).not.toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});
