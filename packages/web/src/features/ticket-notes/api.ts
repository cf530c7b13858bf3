import type { TicketNoteCreateBody, TicketNoteDTO } from "@balcao/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";

export const ticketNoteKeys = {
  list: (ticketId: number, contactId: number) => ["ticket-notes", ticketId, contactId] as const,
};

/** The contact's notes, newest first (GET /ticket-notes/list?ticketId&contactId). */
export function useTicketNotes(ticketId: number, contactId: number) {
  return useQuery({
    queryKey: ticketNoteKeys.list(ticketId, contactId),
    queryFn: ({ signal }) => api.get<TicketNoteDTO[]>("/ticket-notes/list", { ticketId, contactId }, { signal }),
  });
}

export function useAddTicketNote(ticketId: number, contactId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TicketNoteCreateBody) => api.post<TicketNoteDTO>("/ticket-notes", body),
    onSuccess: (note) =>
      queryClient.setQueryData<TicketNoteDTO[]>(ticketNoteKeys.list(ticketId, contactId), (old) => [
        note,
        ...(old ?? []).filter((n) => n.id !== note.id),
      ]),
  });
}

export function useDeleteTicketNote(ticketId: number, contactId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (noteId: number) => api.delete<{ message: string }>(`/ticket-notes/${noteId}`),
    onSuccess: (_data, noteId) =>
      queryClient.setQueryData<TicketNoteDTO[]>(ticketNoteKeys.list(ticketId, contactId), (old) => (old ?? []).filter((n) => n.id !== noteId)),
  });
}
