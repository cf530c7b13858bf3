import { formatPhoneNumber, type KanbanTicketDTO, type TagDTO } from "@balcao/shared";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { act } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AppSocket } from "../../api/socket";
import { SocketContext } from "../../api/SocketProvider";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import KanbanPage from "./KanbanPage";

const lane = (id: number, name: string): TagDTO => ({
  id,
  companyId: 10,
  name,
  color: "#1565C0",
  kanban: 1,
  userId: 1,
  createdAt: "",
  updatedAt: "",
});
const LANES = [lane(3, "Proposta"), lane(5, "Fechamento")];

const card = (id: number, overrides: Partial<KanbanTicketDTO> = {}): KanbanTicketDTO => ({
  id,
  uuid: `uuid-${id}`,
  status: "pending",
  userId: null,
  queueId: null,
  contactId: 100 + id,
  lastMessage: `Mensagem ${id}`,
  unreadMessages: 0,
  updatedAt: new Date(Date.UTC(2030, 0, 1, 0, 0, id)).toISOString(),
  tags: [],
  contact: { id: 100 + id, name: `Cliente ${id}`, number: "5511988887777" },
  ...overrides,
});

function fakeSocket() {
  const handlers = new Map<string, (payload: unknown) => void>();
  const socket = { on: (e: string, fn: (p: unknown) => void) => handlers.set(e, fn), off: (e: string) => handlers.delete(e) };
  return { socket: socket as unknown as AppSocket, emit: (e: string, p: unknown) => act(() => handlers.get(e)?.(p)) };
}

function render(cards: KanbanTicketDTO[], routes: Parameters<typeof mockFetch>[0] = {}) {
  const fetch = mockFetch({
    "GET /api/tags/kanban": () => jsonResponse(200, { lista: LANES }),
    "GET /api/ticket/kanban": () => jsonResponse(200, { tickets: cards, truncated: false }),
    ...routes,
  });
  const { socket, emit } = fakeSocket();
  const view = renderPage(
    <SocketContext.Provider value={socket}>
      <KanbanPage />
    </SocketContext.Provider>,
    { session: fakeSession(makeUser({ profile: "user" })), path: "/kanban" },
  );
  return { ...fetch, ...view, emit };
}

const laneEl = (name: string) => screen.getByRole("region", { name });
const cardNames = (name: string) =>
  within(laneEl(name))
    .queryAllByTestId("kanban-card")
    .map((c) => within(c).getByText(/^Cliente/).textContent);

afterEach(() => vi.restoreAllMocks());

describe("KanbanPage", () => {
  it("shows 'Em aberto' and one lane per Kanban tag in order, with number, contact, last message and 'Ver Ticket'", async () => {
    render([
      card(1),
      card(2, {
        tags: [
          { id: 5, name: "Fechamento", color: "#000" },
          { id: 9, name: "VIP", color: "#000" },
        ],
      }),
      card(3, { tags: [{ id: 3, name: "Proposta", color: "#000" }] }),
    ]);
    await screen.findByText("Cliente 1");
    expect(screen.getAllByRole("heading", { level: 2 }).map((h) => h.textContent)).toEqual(["Em aberto", "Proposta", "Fechamento"]);
    expect(cardNames("Em aberto")).toEqual(["Cliente 1"]);
    expect(cardNames("Proposta")).toEqual(["Cliente 3"]);
    expect(cardNames("Fechamento")).toEqual(["Cliente 2"]);
    const first = within(laneEl("Em aberto")).getByTestId("kanban-card");
    expect(within(first).getByText("#1")).toBeInTheDocument();
    expect(within(first).getByText("Mensagem 1")).toBeInTheDocument();
    expect(within(first).getByText(formatPhoneNumber("5511988887777"))).toBeInTheDocument();
    await userEvent.click(within(first).getByRole("button", { name: "Ver Ticket" }));
    expect(screen.getByTestId("location")).toHaveTextContent("/tickets/uuid-1");
  });

  it("moves a card in one call from the keyboard-friendly menu, and puts it back when the server refuses", async () => {
    let refuse = false;
    // The server's state: what a reload answers.
    let onServer = [card(1), card(2)];
    const { calls } = render(onServer, {
      "GET /api/ticket/kanban": () => jsonResponse(200, { tickets: onServer, truncated: false }),
      "PUT /api/ticket/kanban/1": ({ body }) => {
        if (refuse) return jsonResponse(409, { error: "ERR_KANBAN_LANE_CHANGED" });
        const moved = { ...card(1), tags: [{ id: (body as { toTagId: number }).toTagId, name: "Proposta", color: "#1565C0" }] };
        onServer = [moved, card(2)];
        return jsonResponse(200, moved);
      },
    });
    await screen.findByText("Cliente 1");
    await userEvent.click(screen.getByRole("button", { name: "Mover Cliente 1 para outra coluna" }));
    await userEvent.click(await screen.findByRole("menuitem", { name: "Proposta" }));
    await waitFor(() => expect(cardNames("Proposta")).toEqual(["Cliente 1"]));
    expect(cardNames("Em aberto")).toEqual(["Cliente 2"]);
    expect(calls.filter((c) => c.method === "PUT").map((c) => c.body)).toEqual([{ fromTagId: null, toTagId: 3 }]);

    refuse = true;
    await userEvent.click(screen.getByRole("button", { name: "Mover Cliente 1 para outra coluna" }));
    await userEvent.click(await screen.findByRole("menuitem", { name: "Fechamento" }));
    expect(await screen.findByText("O cartão já foi movido por outra pessoa. O quadro foi atualizado.")).toBeInTheDocument();
    await waitFor(() => expect(cardNames("Proposta")).toEqual(["Cliente 1"]));
    expect(cardNames("Fechamento")).toEqual([]);
  });

  it("follows `ticket` events: another user's move, a new ticket, a closed or deleted one", async () => {
    const { emit } = render([card(1), card(2)]);
    await screen.findByText("Cliente 1");
    emit("ticket", { action: "update", ticket: { ...card(1), tags: [{ id: 5, name: "Fechamento", color: "#000" }] } });
    await waitFor(() => expect(cardNames("Fechamento")).toEqual(["Cliente 1"]));
    emit("ticket", { action: "update", ticket: card(7) });
    await waitFor(() => expect(cardNames("Em aberto")).toEqual(["Cliente 7", "Cliente 2"]));
    emit("ticket", { action: "update", ticket: { ...card(7), status: "closed" } });
    emit("ticket", { action: "delete", ticketId: 2 });
    await waitFor(() => expect(cardNames("Em aberto")).toEqual([]));
  });

  it("renders only the cards in view of a 5,000-card lane", async () => {
    render(Array.from({ length: 5000 }, (_, i) => card(i + 1)));
    await screen.findByText("Cliente 5000");
    const open = laneEl("Em aberto");
    expect(within(open).getByTestId("kanban-lane-count")).toHaveTextContent("5.000");
    const rendered = within(open).getAllByTestId("kanban-card").length;
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(20);
    // Scrolling far down brings those cards in.
    const scroller = within(open).getByTestId("kanban-scroller");
    Object.defineProperty(scroller, "clientHeight", { configurable: true, value: 600 });
    scroller.scrollTop = 156 * 4000;
    fireEvent.scroll(scroller);
    expect(await within(open).findByText("Cliente 1000")).toBeInTheDocument();
    expect(within(open).queryByText("Cliente 5000")).not.toBeInTheDocument();
  });

  it("moves a card with the keyboard: Space picks it up, → goes to the next lane, Space drops", async () => {
    // jsdom has no layout: lanes side by side, 300 px wide, cards stacked inside them.
    vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockImplementation(function (this: HTMLElement) {
      const laneNode = this.closest("[data-testid='kanban-lane']") as HTMLElement | null;
      const lanes = [...document.querySelectorAll("[data-testid='kanban-lane']")];
      const index = laneNode ? lanes.indexOf(laneNode) : 0;
      const left = index * 320;
      const isLane = this.dataset.testid === "kanban-lane";
      const rect = isLane ? { left, top: 0, width: 300, height: 800 } : { left: left + 8, top: 60, width: 284, height: 148 };
      return { ...rect, right: rect.left + rect.width, bottom: rect.top + rect.height, x: rect.left, y: rect.top, toJSON: () => rect } as DOMRect;
    });
    const { calls } = render([card(1)], {
      "PUT /api/ticket/kanban/1": () => jsonResponse(200, { ...card(1), tags: [{ id: 3, name: "Proposta", color: "#1565C0" }] }),
    });
    await screen.findByText("Cliente 1");
    const handle = screen.getByRole("button", { name: "Arrastar Cliente 1, na coluna Em aberto" });
    handle.focus();
    await userEvent.keyboard(" ");
    await userEvent.keyboard("{ArrowRight}");
    await userEvent.keyboard(" ");
    await waitFor(() => expect(calls.filter((c) => c.method === "PUT").map((c) => c.body)).toEqual([{ fromTagId: null, toTagId: 3 }]));
    await waitFor(() => expect(cardNames("Proposta")).toEqual(["Cliente 1"]));
  });
});
