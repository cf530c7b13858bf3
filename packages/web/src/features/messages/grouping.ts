/**
 * The message list of spec §2 as a timeline: a date separator (dd/MM/yyyy) before the first message of
 * each day, and 'Conversa encerrada' / 'Conversa iniciada' markers where the ticket changes between two
 * adjacent messages (the conversation spans the contact's tickets on the connection).
 */
import type { MessageDTO } from "@balcao/shared";
import { formatLocalDate } from "../../app/format";

export type TimelineItem =
  | { kind: "date"; key: string; label: string }
  | { kind: "ticketEnded"; key: string; ticketId: number }
  | { kind: "ticketStarted"; key: string; ticketId: number }
  | { kind: "message"; key: string; message: MessageDTO };

export function dayLabel(iso: string): string {
  const date = new Date(iso);
  return formatLocalDate(date);
}

export function buildTimeline(messages: MessageDTO[]): TimelineItem[] {
  const items: TimelineItem[] = [];
  let previous: MessageDTO | null = null;
  for (const message of messages) {
    const day = dayLabel(message.createdAt);
    const ticketChanged = previous !== null && previous.ticketId !== message.ticketId;
    if (ticketChanged && previous) items.push({ kind: "ticketEnded", key: `end-${previous.id}`, ticketId: previous.ticketId });
    if (previous === null || dayLabel(previous.createdAt) !== day) items.push({ kind: "date", key: `date-${message.id}`, label: day });
    if (ticketChanged) items.push({ kind: "ticketStarted", key: `start-${message.id}`, ticketId: message.ticketId });
    items.push({ kind: "message", key: `m-${message.id}`, message });
    previous = message;
  }
  return items;
}
