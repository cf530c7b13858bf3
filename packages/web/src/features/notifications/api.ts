import type { NotificationListResponse, NotificationsReadResponse, SmtpSettingsBody, SmtpSettingsDTO, SmtpTestResponse } from "@balcao/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { useSocketEvent } from "../../api/SocketProvider";
import { usePagedQuery } from "../../components/list/useListData";

export const notificationKeys = {
  root: ["notifications"] as const,
  feed: ["notifications", "feed"] as const,
  smtp: ["notifications", "smtp"] as const,
};

/** GET /notifications: the company's connection alerts, newest first, with the caller's unread count (admins). */
export function useNotificationsFeed() {
  return usePagedQuery<NotificationListResponse>(notificationKeys.feed, "/notifications", "");
}

/** A new connection alert (`whatsappHealthAlert`, admins' room) refreshes the bell. */
export function useNotificationsRealtime(): void {
  const queryClient = useQueryClient();
  useSocketEvent("whatsappHealthAlert", () => {
    void queryClient.invalidateQueries({ queryKey: notificationKeys.feed });
  });
}

/** PUT /notifications/read: every alert so far is read for the caller. */
export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.put<NotificationsReadResponse>("/notifications/read"),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.feed }),
  });
}

/** GET /settings/smtp (admins): the company's SMTP setting, without its password. */
export function useSmtpSettings() {
  return useQuery({ queryKey: notificationKeys.smtp, queryFn: ({ signal }) => api.get<SmtpSettingsDTO>("/settings/smtp", undefined, { signal }) });
}

export function useSaveSmtpSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SmtpSettingsBody) => api.put<SmtpSettingsDTO>("/settings/smtp", body),
    onSuccess: (saved) => queryClient.setQueryData(notificationKeys.smtp, saved),
  });
}

/** POST /settings/smtp/test: one test e-mail through the saved setting. */
export function useSendTestMail() {
  return useMutation({ mutationFn: () => api.post<SmtpTestResponse>("/settings/smtp/test") });
}
