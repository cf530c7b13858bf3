import type { MessageDTO, MessageListResponse, QuickMessageDTO } from "@balcao/shared";
import { useInfiniteQuery, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { api, ApiError } from "../../api/client";
import { toastError } from "../../components/toastError";
import {
  appendMessage,
  markOptimisticFailed,
  messageKeys,
  optimisticMessage,
  settleOptimistic,
  updateMessage,
  type MessagePages,
} from "./messagesCache";

export function useMessages(ticketId: number | undefined) {
  return useInfiniteQuery({
    queryKey: messageKeys.list(ticketId ?? 0),
    // Older pages by keyset: the page before the oldest message held (constant cost at any depth).
    queryFn: ({ pageParam, signal }) => api.get<MessageListResponse>(`/messages/${ticketId}`, pageParam ? { beforeId: pageParam } : {}, { signal }),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => (last.hasMore ? last.messages[0]?.id : undefined),
    enabled: !!ticketId,
  });
}

/** What the composer sends: text (optionally quoting a message) or files with an optional caption. */
export interface OutgoingMessage {
  body: string;
  quotedMsg?: MessageDTO | null;
  files?: File[];
  /** The single file is a recorded voice note (the server converts it for WhatsApp). */
  voice?: boolean;
}

/** Payloads of sends that failed before the server stored them, so "retry" can post them again. */
const localFailures = new Map<number, OutgoingMessage>();

function toRequestBody(message: OutgoingMessage): FormData | { body: string; quotedMsg?: number } {
  if (message.files && message.files.length > 0) {
    const form = new FormData();
    form.append("body", message.body);
    if (message.quotedMsg) form.append("quotedMsg", String(message.quotedMsg.id));
    if (message.voice) form.append("voice", "true");
    for (const file of message.files) form.append("medias", file, file.name);
    return form;
  }
  return { body: message.body, ...(message.quotedMsg ? { quotedMsg: message.quotedMsg.id } : {}) };
}

function mediaTypeOf(file: File | undefined, voice?: boolean): string {
  if (!file) return "chat";
  if (voice) return "audio";
  const major = file.type.split("/")[0];
  return major === "image" || major === "video" || major === "audio" ? major : "document";
}

function setPages(queryClient: QueryClient, ticketId: number, fn: (data: MessagePages) => MessagePages) {
  queryClient.setQueryData<MessagePages>(messageKeys.list(ticketId), (old) => (old ? fn(old) : old));
}

/** Posts a message with an optimistic entry that settles with the server's answer (or is marked failed). */
async function postMessage(queryClient: QueryClient, ticketId: number, message: OutgoingMessage, tempId?: number): Promise<boolean> {
  const first = message.files?.[0];
  const temp = optimisticMessage(ticketId, message.body || first?.name || "", {
    quotedMsg: message.quotedMsg
      ? {
          id: message.quotedMsg.id,
          body: message.quotedMsg.body,
          fromMe: message.quotedMsg.fromMe,
          mediaType: message.quotedMsg.mediaType,
          isDeleted: message.quotedMsg.isDeleted,
        }
      : null,
    mediaType: mediaTypeOf(first, message.voice),
    mediaName: first?.name ?? null,
  });
  setPages(queryClient, ticketId, (data) => appendMessage(tempId ? settleOptimistic(data, tempId, []) : data, temp));
  try {
    const sent = await api.post<MessageDTO[] | MessageDTO>(`/messages/${ticketId}`, toRequestBody(message));
    setPages(queryClient, ticketId, (data) => settleOptimistic(data, temp.id, Array.isArray(sent) ? sent : [sent]));
    return true;
  } catch (err) {
    const realId = err instanceof ApiError ? Number(err.body.meta?.messageId) || undefined : undefined;
    if (!realId) localFailures.set(temp.id, message);
    setPages(queryClient, ticketId, (data) => markOptimisticFailed(data, temp.id, realId));
    toastError(err);
    return false;
  }
}

export function useMessageActions(ticketId: number | undefined) {
  const queryClient = useQueryClient();

  const send = useCallback(
    (message: OutgoingMessage) => (ticketId ? postMessage(queryClient, ticketId, message) : Promise.resolve(false)),
    [queryClient, ticketId],
  );

  const retry = useCallback(
    async (message: MessageDTO) => {
      if (message.id < 0) {
        const payload = localFailures.get(message.id);
        localFailures.delete(message.id);
        if (payload) await postMessage(queryClient, message.ticketId, payload, message.id);
        return;
      }
      setPages(queryClient, message.ticketId, (data) => updateMessage(data, { ...message, status: "pending" }));
      try {
        const updated = await api.post<MessageDTO>(`/messages/${message.id}/retry`);
        setPages(queryClient, message.ticketId, (data) => updateMessage(data, updated));
      } catch (err) {
        setPages(queryClient, message.ticketId, (data) => updateMessage(data, { ...message, status: "failed" }));
        toastError(err);
      }
    },
    [queryClient],
  );

  const remove = useCallback(
    async (message: MessageDTO) => {
      const updated = await api.delete<MessageDTO>(`/messages/${message.id}`);
      setPages(queryClient, message.ticketId, (data) => updateMessage(data, updated ?? { ...message, isDeleted: true }));
    },
    [queryClient],
  );

  return { send, retry, remove };
}

/** Quick messages for the composer's '/' suggestions (GET /quick-messages/list); empty when unavailable. */
export function useQuickMessages(enabled: boolean) {
  return useQuery({
    queryKey: ["composer", "quick-messages"],
    queryFn: () => api.get<QuickMessageDTO[]>("/quick-messages/list"),
    enabled,
    retry: false,
    staleTime: 60_000,
    select: (list) => (Array.isArray(list) ? list : []),
  });
}
