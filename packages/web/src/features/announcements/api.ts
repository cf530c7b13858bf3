import type { AnnouncementCreateBody, AnnouncementDTO, AnnouncementEvent, AnnouncementListResponse, AnnouncementUpdateBody } from "@balcao/shared";
import { useMutation, useQueryClient, type InfiniteData, type QueryClient } from "@tanstack/react-query";
import { enqueueSnackbar } from "../../components/toasts";
import { useTranslation } from "react-i18next";
import { api } from "../../api/client";
import { useSocketEvent } from "../../api/SocketProvider";
import { usePagedQuery } from "../../components/list/useListData";

export const announcementKeys = {
  root: ["announcements"] as const,
  list: (searchParam: string) => ["announcements", "list", searchParam] as const,
  /** The top-bar popover: active announcements, newest first, with the caller's unread marks. */
  feed: ["announcements", "feed"] as const,
};

/** GET /announcements/ (the super user's page: every announcement). */
export function useAnnouncementsList(searchParam: string) {
  return usePagedQuery<AnnouncementListResponse>(announcementKeys.list(searchParam), "/announcements/", searchParam);
}

/** The popover's pages (GET /announcements/ with no search). */
export function useAnnouncementsFeed() {
  return usePagedQuery<AnnouncementListResponse>(announcementKeys.feed, "/announcements/", "");
}

const refreshAll = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: announcementKeys.root });

export function useSaveAnnouncement(id: number | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AnnouncementCreateBody | AnnouncementUpdateBody) =>
      id ? api.put<AnnouncementDTO>(`/announcements/${id}`, body) : api.post<AnnouncementDTO>("/announcements", body),
    onSuccess: () => refreshAll(queryClient),
  });
}

export function useDeleteAnnouncement() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: (id: number) => api.delete(`/announcements/${id}`), onSuccess: () => refreshAll(queryClient) });
}

/** POST /announcements/:id/media-upload (multipart, field `file`) or DELETE it. */
export function useAnnouncementMedia() {
  const queryClient = useQueryClient();
  const upload = useMutation({
    mutationFn: ({ id, file }: { id: number; file: File }) => {
      const body = new FormData();
      body.append("file", file, file.name);
      return api.post<AnnouncementDTO>(`/announcements/${id}/media-upload`, body);
    },
    onSuccess: () => refreshAll(queryClient),
  });
  const remove = useMutation({
    mutationFn: (id: number) => api.delete<AnnouncementDTO>(`/announcements/${id}/media-upload`),
    onSuccess: () => refreshAll(queryClient),
  });
  return { upload, remove };
}

/** Marks one read in every cached page at once (the badge drops without waiting for a refetch). */
function markReadInCache(queryClient: QueryClient, id: number): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: announcementKeys.root })) {
    queryClient.setQueryData<InfiniteData<AnnouncementListResponse>>(query.queryKey, (old) => {
      if (!old?.pages) return old;
      const wasUnread = old.pages.some((page) => page.records.some((r) => r.id === id && r.read === false && r.status));
      return {
        ...old,
        pages: old.pages.map((page) => ({
          ...page,
          unreadCount: wasUnread ? Math.max(0, page.unreadCount - 1) : page.unreadCount,
          records: page.records.map((r) => (r.id === id ? { ...r, read: true } : r)),
        })),
      };
    });
  }
}

/** POST /announcements/:id/read, when the viewer opens an unread one. */
export function useMarkAnnouncementRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<AnnouncementDTO>(`/announcements/${id}/read`),
    onMutate: (id) => markReadInCache(queryClient, id),
  });
}

/**
 * The `announcement` event (sent to every company): cached lists and the unread count are refetched, and a
 * new active announcement is announced with a toast. Mounted once, by the top-bar popover.
 */
export function useAnnouncementsRealtime(): void {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  useSocketEvent<AnnouncementEvent>("announcement", (event) => {
    void refreshAll(queryClient);
    if (event.action === "create" && event.record.status)
      enqueueSnackbar(t("announcements.toasts.arrived", { title: event.record.title }), { variant: "info" });
  });
}
