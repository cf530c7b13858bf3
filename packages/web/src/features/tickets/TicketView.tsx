import { MOBILE_BREAKPOINT_PX, type AppMessageEvent, type MessageDTO, type TicketDTO, type TicketEvent } from "@balcao/shared";
import { Box, Paper, useMediaQuery } from "@mui/material";
import { enqueueSnackbar } from "../../components/toasts";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { ApiError } from "../../api/client";
import { useSocketEvent } from "../../api/SocketProvider";
import { EmptyState } from "../../components/EmptyState";
import { LoadingState } from "../../components/LoadingState";
import { errorText } from "../../components/toastError";
import { MessageInput } from "../messages/MessageInput";
import { MessagesList } from "../messages/MessagesList";
import { markTicketRead, useTicket } from "./api";
import { TicketHeader } from "./TicketHeader";
import { TicketPresence } from "./presence";
import { lazyWhenOpened } from "../../components/lazyWhenOpened";

// Downloaded when first opened (issue 20): the contact form carries the phone metadata.
const ContactDrawer = lazyWhenOpened(() => import("./ContactDrawer").then((module) => module.ContactDrawer));

/** Zeroes the unread counter when the ticket is opened and when messages arrive while it is on screen. */
function useMarkRead(ticket: TicketDTO | undefined) {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const id = ticket?.id;
  const unread = ticket?.unreadMessages ?? 0;
  useEffect(() => {
    if (id && unread > 0) void markTicketRead(id).catch(() => undefined);
  }, [id, unread]);
  useSocketEvent<AppMessageEvent>("appMessage", (event) => {
    if (event.action !== "create" || event.message.ticketId !== id || event.message.fromMe || document.visibilityState !== "visible") return;
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => void markTicketRead(event.message.ticketId).catch(() => undefined), 500);
  });
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
}

/** The conversation of one ticket (spec §2): header, messages, composer and the contact drawer. */
export function TicketConversation({ ticket, readOnly = false, onBack }: { ticket: TicketDTO; readOnly?: boolean; onBack?: () => void }) {
  const wide = useMediaQuery(`(min-width:${MOBILE_BREAKPOINT_PX}px)`, { noSsr: true });
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [replyingTo, setReplyingTo] = useState<MessageDTO | null>(null);
  return (
    <Box sx={{ display: "flex", height: "100%", minHeight: 0 }}>
      <Box sx={{ flex: 1, minWidth: 0, display: "flex", flexDirection: "column" }}>
        {!readOnly && <TicketHeader ticket={ticket} onOpenContact={() => setDrawerOpen((o) => !o)} onBack={onBack} />}
        {!readOnly && <TicketPresence ticketId={ticket.id} />}
        <MessagesList key={ticket.id} ticket={ticket} readOnly={readOnly} onReply={setReplyingTo} />
        {!readOnly && <MessageInput key={`input-${ticket.id}`} ticket={ticket} replyingTo={replyingTo} onCancelReply={() => setReplyingTo(null)} />}
      </Box>
      {!readOnly && (
        <ContactDrawer open={drawerOpen} onClose={() => setDrawerOpen(false)} ticket={ticket} variant={wide ? "persistent" : "temporary"} />
      )}
    </Box>
  );
}

/** /tickets/:uuid — loads the ticket (403 → 'Acesso não permitido' and back to /tickets). */
export function TicketView({ uuid, onBack }: { uuid: string; onBack?: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const query = useTicket(uuid);
  const ticket = query.data;
  useMarkRead(ticket);

  useEffect(() => {
    if (!query.isError) return;
    const err = query.error;
    enqueueSnackbar(err instanceof ApiError && err.status === 403 ? errorText(err) || t("tickets.accessDenied") : errorText(err), {
      variant: "error",
      autoHideDuration: 2000,
    });
    navigate("/tickets", { replace: true });
  }, [query.isError, query.error, navigate, t]);

  // The ticket was deleted or left this user's sight (e.g. transferred to another queue).
  useSocketEvent<TicketEvent>("ticket", (event) => {
    if (event.action === "delete" && ticket && event.ticketId === ticket.id) navigate("/tickets");
  });

  return (
    <Paper variant="outlined" sx={{ height: "100%", minHeight: 0, overflow: "hidden", display: "flex", flexDirection: "column" }}>
      {query.isLoading && <LoadingState />}
      {query.isError && <EmptyState title={t("tickets.loadFailed")} />}
      {ticket && <TicketConversation key={ticket.id} ticket={ticket} onBack={onBack} />}
    </Paper>
  );
}
