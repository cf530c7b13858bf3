import type {
  ChatCreateBody,
  ChatDTO,
  ChatEvent,
  ChatListResponse,
  ChatMessageDTO,
  ChatMessagesResponse,
  ChatRoomEvent,
  ChatUpdateBody,
  ChatUserEvent,
} from "@balcao/shared";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData, type QueryClient } from "@tanstack/react-query";
import { useRef } from "react";
import { api } from "../../api/client";
import { useSocketEvent } from "../../api/SocketProvider";
import { VOLUME_KEY } from "../../app/layout/VolumeControl";
import { usePagedQuery } from "../../components/list/useListData";
import { readLocalStorage } from "../../hooks/useLocalStorage";
import { useSession } from "../auth/SessionProvider";
import { playNotificationSound } from "../tickets/notifications";

export const chatKeys = {
  root: ["chats"] as const,
  lists: ["chats", "list"] as const,
  list: (searchParam: string) => ["chats", "list", searchParam] as const,
  messages: (chatId: number) => ["chats", "messages", chatId] as const,
  detail: (chatId: number) => ["chats", "list", "detail", chatId] as const,
};

/** GET /chats/:id — the open chat (under `lists`, so every change refetches it too). */
export function useChat(chatId: number | null) {
  return useQuery({
    queryKey: chatKeys.detail(chatId ?? 0),
    enabled: chatId !== null,
    retry: false,
    queryFn: ({ signal }) => api.get<ChatDTO>(`/chats/${chatId}`, undefined, { signal }),
  });
}

/** GET /chats/ — the caller's chats, latest activity first, with the total unread count. */
export function useChatsList(searchParam: string) {
  return usePagedQuery<ChatListResponse>(chatKeys.list(searchParam), "/chats/", searchParam);
}

type MessagePages = InfiniteData<ChatMessagesResponse, unknown>;

/** GET /chats/:id/messages — pages[0] is the newest page; each next page is older (`before` = its oldest id). */
export function useChatMessages(chatId: number | null) {
  return useInfiniteQuery({
    queryKey: chatKeys.messages(chatId ?? 0),
    enabled: chatId !== null,
    queryFn: ({ pageParam, signal }) =>
      api.get<ChatMessagesResponse>(`/chats/${chatId}/messages`, pageParam ? { before: pageParam } : { pageNumber: 1 }, { signal }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => (last.hasMore && last.records[0] ? last.records[0].id : undefined),
  });
}

/** The loaded messages in chronological order. */
export function flattenChatMessages(data: MessagePages | undefined): ChatMessageDTO[] {
  if (!data) return [];
  const seen = new Set<number>();
  return [...data.pages]
    .reverse()
    .flatMap((p) => p.records)
    .filter((m) => !seen.has(m.id) && !!seen.add(m.id));
}

/** Adds a message to the newest page of its chat (no-op when it is already there: the socket and the POST both bring it). */
export function appendChatMessage(queryClient: QueryClient, message: ChatMessageDTO): void {
  queryClient.setQueryData<MessagePages>(chatKeys.messages(message.chatId), (old) => {
    if (!old?.pages.length) return old;
    if (old.pages.some((p) => p.records.some((m) => m.id === message.id))) return old;
    const [newest, ...rest] = old.pages;
    return { ...old, pages: [{ ...newest!, records: [...newest!.records, message] }, ...rest] };
  });
}

const refreshLists = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: chatKeys.lists });

export function useSaveChat(id: number | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChatCreateBody | ChatUpdateBody) => (id ? api.put<ChatDTO>(`/chats/${id}`, body) : api.post<ChatDTO>("/chats", body)),
    onSuccess: () => refreshLists(queryClient),
  });
}

export function useDeleteChat() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: (id: number) => api.delete(`/chats/${id}`), onSuccess: () => refreshLists(queryClient) });
}

export function useSendChatMessage(chatId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (message: string) => api.post<ChatMessageDTO>(`/chats/${chatId}/messages`, { message }),
    onSuccess: (message) => {
      appendChatMessage(queryClient, message);
      void refreshLists(queryClient);
    },
  });
}

/** Sets the caller's unread count of a chat to zero in every cached list page (the badge drops at once). */
function clearUnreadsInCache(queryClient: QueryClient, chatId: number, userId: number): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: chatKeys.lists })) {
    queryClient.setQueryData<InfiniteData<ChatListResponse>>(query.queryKey, (old) => {
      if (!old?.pages) return old;
      const had =
        old.pages
          .flatMap((p) => p.records)
          .find((c) => c.id === chatId)
          ?.users.find((u) => u.userId === userId)?.unreads ?? 0;
      return {
        ...old,
        pages: old.pages.map((page) => ({
          ...page,
          unreadCount: Math.max(0, page.unreadCount - had),
          records: page.records.map((c) =>
            c.id === chatId ? { ...c, users: c.users.map((u) => (u.userId === userId ? { ...u, unreads: 0 } : u)) } : c,
          ),
        })),
      };
    });
  }
}

/** POST /chats/:id/read (spec §4: unread count reset when opened). Errors are ignored (spec §8). */
export function useMarkChatRead() {
  const queryClient = useQueryClient();
  const { user } = useSession();
  return useMutation({
    mutationFn: (chatId: number) => api.post<ChatDTO>(`/chats/${chatId}/read`, { userId: user?.id }),
    onMutate: (chatId) => {
      if (user) clearUnreadsInCache(queryClient, chatId, user.id);
    },
  });
}

/**
 * The live `chat` and `chat-user` layer, mounted once (by the top-bar popover): lists are refetched on every
 * change, and a new message from someone else while the tab is hidden plays the notification sound at the
 * stored volume (the tickets' sound).
 */
export function useChatsRealtime(): void {
  const queryClient = useQueryClient();
  const { user } = useSession();
  useSocketEvent<ChatEvent>("chat", (event) => {
    void refreshLists(queryClient);
    if (event.action === "delete") queryClient.removeQueries({ queryKey: chatKeys.messages(event.id) });
    if (event.action === "new-message") {
      appendChatMessage(queryClient, event.newMessage);
      if (event.newMessage.senderId !== user?.id && typeof document !== "undefined" && document.visibilityState === "hidden")
        playNotificationSound(readLocalStorage<number>(VOLUME_KEY, 1));
    }
  });
  useSocketEvent<ChatUserEvent>("chat-user", () => void refreshLists(queryClient));
}

/** The open pane's `chat-{id}` stream: new messages, edits and deletion of that chat. */
export function useChatRoom(chatId: number | null, handlers: { onMessage: (m: ChatMessageDTO) => void; onDeleted: () => void }): void {
  const ref = useRef(handlers);
  ref.current = handlers;
  useSocketEvent<ChatRoomEvent>(`chat-${chatId ?? 0}`, (event) => {
    if (event.action === "new-message") ref.current.onMessage(event.newMessage);
    if (event.action === "delete") ref.current.onDeleted();
  });
}
