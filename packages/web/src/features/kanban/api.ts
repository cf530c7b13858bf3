import {
  laneOf,
  type KanbanResponse,
  type KanbanTicketDTO,
  type TagDTO,
  type TagKanbanResponse,
  type TicketDTO,
  type TicketEvent,
} from "@balcao/shared";
import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { useSocketEvent } from "../../api/SocketProvider";

export const kanbanKeys = {
  all: ["kanban"] as const,
  lanes: () => ["kanban", "lanes"] as const,
  board: () => ["kanban", "board"] as const,
};

export type Lane = Pick<TagDTO, "id" | "name" | "color">;

/** The Kanban tags, in lane order (GET /tags/kanban). */
export function useKanbanLanes() {
  return useQuery({
    queryKey: kanbanKeys.lanes(),
    queryFn: ({ signal }) => api.get<TagKanbanResponse>("/tags/kanban", undefined, { signal }),
    select: (data): Lane[] => (Array.isArray(data?.lista) ? data.lista.map(({ id, name, color }) => ({ id, name, color })) : []),
  });
}

/** Every card the caller may see (the server applies the profile's queues). */
export function useKanbanBoard() {
  return useQuery({
    queryKey: kanbanKeys.board(),
    queryFn: ({ signal }) => api.get<KanbanResponse>("/ticket/kanban", undefined, { signal }),
  });
}

const byActivity = (a: KanbanTicketDTO, b: KanbanTicketDTO) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id;

/** A ticket (or a TicketDTO from an event) as a card. */
export function toCard(t: KanbanTicketDTO | TicketDTO): KanbanTicketDTO {
  return {
    id: t.id,
    uuid: t.uuid,
    status: t.status,
    userId: t.userId,
    queueId: t.queueId,
    contactId: t.contactId,
    lastMessage: t.lastMessage,
    unreadMessages: t.unreadMessages,
    updatedAt: t.updatedAt,
    tags: t.tags,
    contact: { id: t.contact.id, name: t.contact.name, number: t.contact.number },
  };
}

/** Cards by lane id (null = 'Em aberto'), each lane newest activity first. */
export function groupByLane(cards: KanbanTicketDTO[], lanes: Lane[]): Map<number | null, KanbanTicketDTO[]> {
  const laneIds = lanes.map((l) => l.id);
  const groups = new Map<number | null, KanbanTicketDTO[]>([[null, []], ...laneIds.map((id) => [id, []] as [number, KanbanTicketDTO[]])]);
  for (const card of cards) groups.get(laneOf(card, laneIds))!.push(card);
  for (const list of groups.values()) list.sort(byActivity);
  return groups;
}

/** The card with its Kanban tags replaced by `lane`'s (what the server does on a move). */
export function withLane(card: KanbanTicketDTO, lane: Lane | null, lanes: Lane[]): KanbanTicketDTO {
  const laneIds = new Set(lanes.map((l) => l.id));
  const kept = card.tags.filter((t) => !laneIds.has(t.id));
  return { ...card, tags: lane ? [...kept, { id: lane.id, name: lane.name, color: lane.color }] : kept };
}

function patchBoard(queryClient: QueryClient, change: (cards: KanbanTicketDTO[]) => KanbanTicketDTO[]) {
  queryClient.setQueryData<KanbanResponse>(kanbanKeys.board(), (old) => old && { ...old, tickets: change(old.tickets) });
}

/** Live board: ticket changes and moves by others (`ticket`), lanes added, renamed or removed (`tag`). */
export function useKanbanRealtime(): void {
  const queryClient = useQueryClient();
  useSocketEvent<TicketEvent>("ticket", (event) => {
    if (event.action === "delete") return patchBoard(queryClient, (cards) => cards.filter((c) => c.id !== event.ticketId));
    if (event.action !== "update") return;
    const ticket = event.ticket;
    patchBoard(queryClient, (cards) => {
      const rest = cards.filter((c) => c.id !== ticket.id);
      return ticket.status === "closed" ? rest : [...rest, toCard(ticket)];
    });
  });
  useSocketEvent("tag", () => void queryClient.invalidateQueries({ queryKey: kanbanKeys.lanes() }));
}

/**
 * Moves a card: the board changes at once, the server is told in one call, and a refusal puts the card back
 * (a card someone else moved first makes the board reload to show where it is).
 */
export function useMoveCard(lanes: Lane[]) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ card, from, to }: { card: KanbanTicketDTO; from: number | null; to: number | null }) =>
      api.put<TicketDTO>(`/ticket/kanban/${card.id}`, { fromTagId: from, toTagId: to }),
    onMutate: async ({ card, to }) => {
      await queryClient.cancelQueries({ queryKey: kanbanKeys.board() });
      const previous = queryClient.getQueryData<KanbanResponse>(kanbanKeys.board());
      const lane = to === null ? null : (lanes.find((l) => l.id === to) ?? null);
      patchBoard(queryClient, (cards) => cards.map((c) => (c.id === card.id ? withLane(c, lane, lanes) : c)));
      return { previous };
    },
    onError: (err, _vars, context) => {
      if (context?.previous) queryClient.setQueryData(kanbanKeys.board(), context.previous);
      if ((err as { body?: { error?: string } }).body?.error === "ERR_KANBAN_LANE_CHANGED")
        void queryClient.invalidateQueries({ queryKey: kanbanKeys.board() });
    },
    onSuccess: (ticket) => patchBoard(queryClient, (cards) => cards.map((c) => (c.id === ticket.id ? toCard(ticket) : c))),
  });
}
