import type { MessageDTO, TicketDTO } from "@balcao/shared";
import { Box, Button, Chip, CircularProgress, IconButton, Menu, MenuItem, Paper, Typography } from "@mui/material";
import ExpandMore from "@mui/icons-material/ExpandMore";
import Replay from "@mui/icons-material/Replay";
import { formatTime } from "../../app/format";
import { enqueueSnackbar } from "../../components/toasts";
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type UIEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { EmptyState } from "../../components/EmptyState";
import { LoadingState } from "../../components/LoadingState";
import { toastError } from "../../components/toastError";
import { AckIcon } from "./AckIcon";
import { useMessageActions, useMessages } from "./api";
import { buildTimeline } from "./grouping";
import { MessageContent, QuotedMessage } from "./MessageContent";
import { EditedMark, MessageReactions } from "./MessageExtras";
import { flattenMessages, isOptimistic } from "./messagesCache";
import { startTicketFromVcard, type VcardContact } from "./vcard";

/** Distance from the top (px) at which older messages load (spec §9: about 50 px). */
export const MESSAGES_TOP_THRESHOLD_PX = 50;
/** Messages rendered at first; scrolling up reveals more in steps (keeps the DOM small with long histories). */
const INITIAL_RENDERED = 120;
const RENDER_STEP = 80;

interface BubbleProps {
  message: MessageDTO;
  readOnly: boolean;
  onMenu: (anchor: HTMLElement, message: MessageDTO) => void;
  onRetry: (message: MessageDTO) => void;
  onStartTicket?: (card: VcardContact) => void;
}

export const Bubble = memo(function Bubble({ message, readOnly, onMenu, onRetry, onStartTicket }: BubbleProps) {
  const { t } = useTranslation();
  const mine = message.fromMe;
  const time = formatTime(message.createdAt);
  const failed = message.status === "failed";
  return (
    <Box
      sx={{ display: "flex", justifyContent: mine ? "flex-end" : "flex-start", px: 1.5, py: 0.25 }}
      data-testid="message"
      data-from-me={mine ? "true" : "false"}
      data-message-id={message.id}
    >
      <Paper
        elevation={0}
        sx={(theme) => ({
          position: "relative",
          maxWidth: { xs: "85%", md: "65%" },
          minWidth: 90,
          px: 1.25,
          pt: 0.75,
          pb: 0.5,
          pr: readOnly ? 1.25 : 3.5,
          borderRadius: 2,
          bgcolor: mine ? (theme.palette.mode === "dark" ? "#005c4b" : "#dcf8c6") : "background.paper",
          border: failed ? `1px solid ${theme.palette.error.main}` : "none",
          boxShadow: "0 1px 0.5px rgba(0,0,0,0.13)",
        })}
      >
        {!readOnly && !message.isDeleted && !isOptimistic(message) && (
          <IconButton
            size="small"
            aria-label={t("messages.menu.label")}
            onClick={(e) => onMenu(e.currentTarget, message)}
            sx={{ position: "absolute", top: 0, right: 0, p: 0.25 }}
          >
            <ExpandMore fontSize="small" />
          </IconButton>
        )}
        {!mine && message.participant && (
          <Typography variant="caption" color="primary" component="p" sx={{ fontWeight: 600 }}>
            {message.participant}
          </Typography>
        )}
        {message.quotedMsg && !message.isDeleted && <QuotedMessage quoted={message.quotedMsg} />}
        <MessageContent message={message} onStartTicket={onStartTicket} />
        <Box sx={{ display: "flex", alignItems: "center", justifyContent: "flex-end", gap: 0.5, mt: 0.25 }}>
          <EditedMark message={message} />
          <Typography variant="caption" color="text.secondary">
            {time}
          </Typography>
          {mine && <AckIcon message={message} />}
        </Box>
        <MessageReactions message={message} />
        {failed && !readOnly && (
          <Box sx={{ display: "flex", alignItems: "center", gap: 1, mt: 0.5 }}>
            <Typography variant="caption" color="error">
              {t("messages.failed")}
              {message.failureReason &&
                ` — ${
                  message.failureReason.startsWith("(#131047)")
                    ? t("messages.templates.failedWindow")
                    : // The server's own reasons are error-catalogue codes (e.g. a queued reply that waited too long).
                      message.failureReason.startsWith("ERR_")
                      ? t(`backendErrors.${message.failureReason}`, { defaultValue: message.failureReason })
                      : message.failureReason
                }`}
            </Typography>
            <Button size="small" color="error" startIcon={<Replay fontSize="small" />} onClick={() => onRetry(message)}>
              {t("messages.retry")}
            </Button>
          </Box>
        )}
      </Paper>
    </Box>
  );
});

function Marker({ label, color }: { label: string; color?: "default" | "primary" | "error" }) {
  return (
    <Box sx={{ display: "flex", justifyContent: "center", py: 1 }} role="separator" aria-label={label}>
      <Chip size="small" label={label} color={color ?? "default"} variant={color ? "outlined" : "filled"} />
    </Box>
  );
}

interface MessagesListProps {
  ticket: TicketDTO;
  readOnly?: boolean;
  onReply?: (message: MessageDTO) => void;
}

/**
 * The conversation (spec §2): newest page first from the server, older pages when scrolled near the top
 * (keeping the position), date separators, ticket-change markers, own messages on the right with acks.
 * Only a window of the loaded messages is rendered, growing as the user scrolls up.
 */
export function MessagesList({ ticket, readOnly = false, onReply }: MessagesListProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const query = useMessages(ticket.id);
  const { retry, remove } = useMessageActions(ticket.id);
  const messages = useMemo(() => flattenMessages(query.data), [query.data]);
  const [startId, setStartId] = useState<number | null>(null);
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const anchor = useRef<{ height: number; top: number } | null>(null);
  const revealOlder = useRef(false);
  const nearBottom = useRef(true);
  const initialScrollDone = useRef(false);
  const [menu, setMenu] = useState<{ anchor: HTMLElement; message: MessageDTO } | null>(null);
  const [toDelete, setToDelete] = useState<MessageDTO | null>(null);
  const [deleting, setDeleting] = useState(false);

  const startIndex =
    startId === null
      ? Math.max(0, messages.length - INITIAL_RENDERED)
      : Math.max(
          0,
          messages.findIndex((m) => m.id === startId),
        );
  const visible = useMemo(() => messages.slice(startIndex), [messages, startIndex]);
  const timeline = useMemo(() => buildTimeline(visible), [visible]);
  const firstVisibleId = visible[0]?.id;
  const last = messages.at(-1);

  // Older pages arrived: reveal them (the layout effect below keeps the scroll position).
  useEffect(() => {
    if (revealOlder.current && !query.isFetchingNextPage) {
      revealOlder.current = false;
      if (messages[0]) setStartId(messages[0].id);
    }
  }, [messages, query.isFetchingNextPage]);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el || !anchor.current) return;
    el.scrollTop = el.scrollHeight - anchor.current.height + anchor.current.top;
    anchor.current = null;
  }, [firstVisibleId]);

  // First page: start at the bottom; later, follow new messages when already at the bottom or when sent by us.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el || !last) return;
    if (!initialScrollDone.current || nearBottom.current || (last.fromMe && isOptimistic(last))) {
      el.scrollTop = el.scrollHeight;
      initialScrollDone.current = true;
    }
  }, [last?.id, last]);

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const el = event.currentTarget;
    nearBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 150;
    if (el.scrollTop > MESSAGES_TOP_THRESHOLD_PX || anchor.current || !initialScrollDone.current) return;
    if (startIndex > 0) {
      anchor.current = { height: el.scrollHeight, top: el.scrollTop };
      setStartId(messages[Math.max(0, startIndex - RENDER_STEP)].id);
    } else if (query.hasNextPage && !query.isFetchingNextPage) {
      anchor.current = { height: el.scrollHeight, top: el.scrollTop };
      revealOlder.current = true;
      if (messages[0]) setStartId(messages[0].id);
      void query.fetchNextPage();
    }
  };

  const onMenu = useCallback((el: HTMLElement, message: MessageDTO) => setMenu({ anchor: el, message }), []);
  const onRetry = useCallback((message: MessageDTO) => void retry(message), [retry]);
  const onStartTicket = useCallback(
    async (card: VcardContact) => {
      try {
        const created = await startTicketFromVcard(card, ticket);
        navigate(`/tickets/${created.uuid}`);
      } catch (err) {
        toastError(err);
      }
    },
    [navigate, ticket],
  );

  const confirmDelete = async () => {
    if (!toDelete) return;
    setDeleting(true);
    try {
      await remove(toDelete);
      enqueueSnackbar(t("messages.toasts.deleted"), { variant: "success", autoHideDuration: 2000 });
    } catch (err) {
      toastError(err);
    } finally {
      setDeleting(false);
      setToDelete(null);
    }
  };

  return (
    <Box
      ref={scrollRef}
      onScroll={onScroll}
      data-testid="messages-scroll"
      role="log"
      aria-label={t("messages.listLabel")}
      sx={(theme) => ({ flex: 1, minHeight: 0, overflowY: "auto", py: 1, bgcolor: theme.palette.mode === "dark" ? "#0b141a" : "#efeae2" })}
    >
      {query.isFetchingNextPage && (
        <Box sx={{ display: "flex", justifyContent: "center", py: 1 }}>
          <CircularProgress size={20} aria-label={t("common.loading")} />
        </Box>
      )}
      {query.isLoading && <LoadingState />}
      {query.isError && (
        <EmptyState title={t("messages.loadFailed")} action={<Button onClick={() => void query.refetch()}>{t("messages.tryAgain")}</Button>} />
      )}
      {query.isSuccess && messages.length === 0 && <EmptyState title={t("messages.empty")} />}
      {timeline.map((item) => (
        <Box key={item.key} sx={{ contentVisibility: "auto", containIntrinsicSize: "auto 56px" }}>
          {item.kind === "date" && <Marker label={item.label} />}
          {item.kind === "ticketEnded" && <Marker label={t("messages.ticketEnded")} color="error" />}
          {item.kind === "ticketStarted" && <Marker label={t("messages.ticketStarted")} color="primary" />}
          {item.kind === "message" && (
            <Bubble
              message={item.message}
              readOnly={readOnly}
              onMenu={onMenu}
              onRetry={onRetry}
              onStartTicket={readOnly ? undefined : (card) => void onStartTicket(card)}
            />
          )}
        </Box>
      ))}

      <Menu anchorEl={menu?.anchor ?? null} open={!!menu} onClose={() => setMenu(null)}>
        <MenuItem
          onClick={() => {
            if (menu) onReply?.(menu.message);
            setMenu(null);
          }}
        >
          {t("messages.menu.reply")}
        </MenuItem>
        {menu?.message.fromMe && (
          <MenuItem
            onClick={() => {
              setToDelete(menu.message);
              setMenu(null);
            }}
          >
            {t("messages.menu.delete")}
          </MenuItem>
        )}
      </Menu>
      <ConfirmationDialog
        open={!!toDelete}
        title={t("messages.confirmDelete.title")}
        onClose={() => setToDelete(null)}
        onConfirm={() => void confirmDelete()}
        confirmLabel={t("common.delete")}
        loading={deleting}
      >
        {t("messages.confirmDelete.message")}
      </ConfirmationDialog>
    </Box>
  );
}
