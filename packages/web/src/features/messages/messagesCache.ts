/**
 * Cached conversation pages (`GET /messages/:ticketId`: page 1 = newest, oldest first inside a page) and
 * the patches socket events and sends apply to them.
 */
import type { AppMessageEvent, MessageDTO, MessageListResponse } from "@balcao/shared";
import type { InfiniteData, QueryClient } from "@tanstack/react-query";

export type MessagePages = InfiniteData<MessageListResponse, unknown>;

export const messageKeys = {
  all: ["messages"] as const,
  list: (ticketId: number) => ["messages", ticketId] as const,
};

/** Oldest first across every loaded page. */
export function flattenMessages(data: MessagePages | undefined): MessageDTO[] {
  if (!data) return [];
  const seen = new Set<number>();
  const out: MessageDTO[] = [];
  for (let i = data.pages.length - 1; i >= 0; i--) {
    for (const m of data.pages[i].messages) {
      if (seen.has(m.id)) continue;
      seen.add(m.id);
      out.push(m);
    }
  }
  return out;
}

const has = (data: MessagePages, id: number) => data.pages.some((p) => p.messages.some((m) => m.id === id));

export const isOptimistic = (m: MessageDTO) => m.id < 0;

function mapMessages(data: MessagePages, fn: (m: MessageDTO) => MessageDTO): MessagePages {
  return { ...data, pages: data.pages.map((p) => ({ ...p, messages: p.messages.map(fn) })) };
}

function removeById(data: MessagePages, id: number): MessagePages {
  return { ...data, pages: data.pages.map((p) => ({ ...p, messages: p.messages.filter((m) => m.id !== id) })) };
}

/**
 * Adds a message at the newest end, or replaces it when already there. An own message the server
 * announces before our POST answered takes the place of the matching optimistic one.
 */
export function appendMessage(data: MessagePages, message: MessageDTO): MessagePages {
  if (has(data, message.id)) return mapMessages(data, (m) => (m.id === message.id ? message : m));
  if (message.fromMe) {
    const twin = data.pages
      .flatMap((p) => p.messages)
      .find((m) => isOptimistic(m) && m.status === "pending" && m.body === message.body && m.mediaType === message.mediaType);
    if (twin) return mapMessages(data, (m) => (m.id === twin.id ? message : m));
  }
  if (data.pages.length === 0) return { pageParams: [null], pages: [{ messages: [message], hasMore: false, ticket: undefined as never }] };
  const [first, ...rest] = data.pages;
  return { ...data, pages: [{ ...first, messages: [...first.messages, message] }, ...rest] };
}

/** Replaces a message where it is listed (ack, failure, deletion). */
export function updateMessage(data: MessagePages, message: MessageDTO): MessagePages {
  if (!has(data, message.id)) return data;
  return mapMessages(data, (m) => (m.id === message.id ? { ...m, ...message } : m));
}

/** The server answered a send: the optimistic entry becomes the stored messages. */
export function settleOptimistic(data: MessagePages, tempId: number, sent: MessageDTO[]): MessagePages {
  let next = removeById(data, tempId);
  for (const m of sent) next = appendMessage(next, m);
  return next;
}

export function markOptimisticFailed(data: MessagePages, tempId: number, realId?: number): MessagePages {
  if (realId && has(data, realId)) return mapMessages(removeById(data, tempId), (m) => (m.id === realId ? { ...m, status: "failed" } : m));
  return mapMessages(data, (m) => (m.id === tempId ? { ...m, status: "failed", ...(realId ? { id: realId } : {}) } : m));
}

/** Applies an `appMessage` event to the cached conversations. */
export function patchMessagesCache(queryClient: QueryClient, event: AppMessageEvent): void {
  if (event.action === "create") {
    queryClient.setQueryData<MessagePages>(messageKeys.list(event.message.ticketId), (old) => (old ? appendMessage(old, event.message) : old));
    return;
  }
  for (const query of queryClient.getQueryCache().findAll({ queryKey: messageKeys.all })) {
    queryClient.setQueryData<MessagePages>(query.queryKey, (old) => (old ? updateMessage(old, event.message) : old));
  }
}

let tempSeq = 0;
/** A local placeholder shown while a send is in flight (negative id, status pending, ack 0). */
export function optimisticMessage(ticketId: number, body: string, extra: Partial<MessageDTO> = {}): MessageDTO {
  tempSeq += 1;
  return {
    id: -(Date.now() * 1000 + (tempSeq % 1000)),
    ticketId,
    contactId: null,
    body,
    fromMe: true,
    mediaType: "chat",
    mediaUrl: null,
    mediaName: null,
    mimeType: null,
    quotedMsg: null,
    read: true,
    ack: 0,
    isDeleted: false,
    status: "pending",
    participant: null,
    createdAt: new Date().toISOString(),
    contact: null,
    ...extra,
  };
}
