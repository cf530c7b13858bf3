import type { AppMessageEvent, TicketEvent } from "@balcao/shared";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useMatch, useNavigate } from "react-router";
import { useSocketEvent } from "../../api/SocketProvider";
import { VOLUME_KEY } from "../../app/layout/VolumeControl";
import { readLocalStorage } from "../../hooks/useLocalStorage";
import { useSession } from "../auth/SessionProvider";
import { patchMessagesCache } from "../messages/messagesCache";
import { stripWhatsApp } from "../messages/whatsappMarkers";
import { playNotificationSound, requestNotificationPermission, shouldNotify, showBrowserNotification } from "./notifications";
import { patchTicketsCache, type ContactPatch } from "./ticketsCache";

type ContactEvent = { action: "create" | "update"; contact: ContactPatch } | { action: "delete"; contactId: number };

/**
 * The app-wide live layer of tickets and messages (mounted once, in the top bar): `ticket`, `appMessage`
 * and `contact` events patch the cached lists, the opened ticket and its conversation; incoming messages
 * raise the notifications of spec §4.
 */
export function useTicketsRealtime(): void {
  const queryClient = useQueryClient();
  const { user } = useSession();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const match = useMatch("/tickets/:ticketId");
  const openTicketUuid = match?.params.ticketId ?? null;

  useEffect(() => {
    if (user) requestNotificationPermission();
  }, [user]);

  useSocketEvent<TicketEvent>("ticket", (event) => {
    if (user) patchTicketsCache(queryClient, event, user);
  });

  useSocketEvent<ContactEvent>("contact", (event) => {
    if (user && event.action === "update") patchTicketsCache(queryClient, { action: "contact", contact: event.contact }, user);
  });

  useSocketEvent<AppMessageEvent>("appMessage", (event) => {
    patchMessagesCache(queryClient, event);
    if (!user || event.action !== "create") return;
    patchTicketsCache(queryClient, { action: "message", ticket: event.ticket }, user);
    const pageVisible = typeof document === "undefined" || document.visibilityState === "visible";
    if (!shouldNotify(event, { me: user, openTicketUuid, pageVisible })) return;
    playNotificationSound(readLocalStorage<number>(VOLUME_KEY, 1));
    const name = event.contact?.name ?? event.ticket.contact.name;
    showBrowserNotification(
      t("tickets.notifications.title", { name }),
      stripWhatsApp(event.ticket.lastMessage || event.message.body),
      `ticket-${event.ticket.id}`,
      () => navigate(`/tickets/${event.ticket.uuid}`),
      `/tickets/${event.ticket.uuid}`,
    );
  });
}
