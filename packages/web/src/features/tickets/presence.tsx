import { Box, Typography } from "@mui/material";
import VisibilityOutlined from "@mui/icons-material/VisibilityOutlined";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSocket, useSocketEvent } from "../../api/SocketProvider";
import type { AppSocket } from "../../api/socket";
import { useSession } from "../auth/SessionProvider";

/** Server events of the collision guard (packages/server/src/realtime/presence.ts). */
export interface TicketViewer {
  id: number;
  name: string;
}
export interface TicketViewersEvent {
  ticketId: number;
  viewers: TicketViewer[];
}
export interface TicketTypingEvent {
  ticketId: number;
  user: TicketViewer;
}

/** The composer tells the others at most this often while the user types (the server throttles too). */
export const TYPING_SEND_INTERVAL_MS = 2000;
/** "X está digitando…" stays this long after the last notice. */
export const TYPING_SHOW_MS = 4000;

/** Presence is best effort: a socket not there yet (or a test stand-in) just sends nothing. */
function send(socket: AppSocket | null, event: string, payload: unknown) {
  if (socket && typeof socket.emit === "function") socket.emit(event, payload);
}

/**
 * Joins the ticket's viewers while mounted (`joinChatBox`, again after a reconnection; `leaveChatBox` on
 * unmount) and follows who else has it open and who is typing. The own user is left out.
 */
export function useTicketPresence(ticketId: number) {
  const socket = useSocket();
  const { user } = useSession();
  const me = user?.id;
  const [viewers, setViewers] = useState<TicketViewer[]>([]);
  const [typing, setTyping] = useState<TicketViewer[]>([]);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  useEffect(() => {
    if (!socket) return;
    const join = () => send(socket, "joinChatBox", ticketId);
    join();
    socket.on("connect", join);
    return () => {
      socket.off("connect", join);
      send(socket, "leaveChatBox", ticketId);
      setViewers([]);
      setTyping([]);
    };
  }, [socket, ticketId]);

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((timer) => clearTimeout(timer));
  }, []);

  useSocketEvent<TicketViewersEvent>("ticketViewers", (event) => {
    if (event.ticketId !== ticketId) return;
    setViewers(event.viewers.filter((v) => v.id !== me));
    // Someone who left is no longer typing.
    setTyping((current) => current.filter((u) => event.viewers.some((v) => v.id === u.id)));
  });

  useSocketEvent<TicketTypingEvent>("ticketTyping", (event) => {
    if (event.ticketId !== ticketId || event.user.id === me) return;
    const { id } = event.user;
    setTyping((current) => (current.some((u) => u.id === id) ? current : [...current, event.user]));
    clearTimeout(timers.current.get(id));
    timers.current.set(
      id,
      setTimeout(() => {
        timers.current.delete(id);
        setTyping((current) => current.filter((u) => u.id !== id));
      }, TYPING_SHOW_MS),
    );
  });

  return { viewers, typing };
}

/** Returns a function for the composer's keystrokes: sends `typing` at most every TYPING_SEND_INTERVAL_MS. */
export function useTypingNotifier(ticketId: number) {
  const socket = useSocket();
  const last = useRef(0);
  return useCallback(() => {
    const now = Date.now();
    if (now - last.current < TYPING_SEND_INTERVAL_MS) return;
    last.current = now;
    send(socket, "typing", ticketId);
  }, [socket, ticketId]);
}

/** "Também vendo: Ana" and "Ana está digitando…" above the messages; nothing while alone. */
export function TicketPresence({ ticketId }: { ticketId: number }) {
  const { t } = useTranslation();
  const { viewers, typing } = useTicketPresence(ticketId);
  const list = (people: TicketViewer[]) => people.map((p) => p.name).join(", ");
  return (
    <Box role="status" aria-live="polite" data-testid="ticket-presence" sx={{ px: 2, minHeight: 0 }}>
      {viewers.length > 0 && (
        <Box sx={{ display: "flex", alignItems: "center", gap: 1, py: 0.5, color: "text.secondary" }} data-testid="ticket-viewers">
          <VisibilityOutlined fontSize="small" aria-hidden />
          <Typography variant="caption">{t("tickets.presence.viewing", { names: list(viewers), count: viewers.length })}</Typography>
        </Box>
      )}
      {typing.length > 0 && (
        <Typography variant="caption" color="primary" sx={{ display: "block", pb: 0.5, fontStyle: "italic" }} data-testid="ticket-typing">
          {t("tickets.presence.typing", { names: list(typing), count: typing.length })}
        </Typography>
      )}
    </Box>
  );
}
