import { CHAT_LOAD_OLDER_PX, type ChatDTO, type ChatMessageDTO } from "@balcao/shared";
import { Box, Button, CircularProgress, IconButton, Paper, TextField, Tooltip, Typography } from "@mui/material";
import ArrowBack from "@mui/icons-material/ArrowBack";
import Send from "@mui/icons-material/Send";
import { formatDateTime } from "../../app/format";
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type UIEvent } from "react";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../../components/EmptyState";
import { LoadingState } from "../../components/LoadingState";
import { useSession } from "../auth/SessionProvider";
import { flattenChatMessages, useChatMessages, useChatRoom, useMarkChatRead, useSendChatMessage } from "./api";
import { MessageText } from "./MessageText";

const isVisible = () => typeof document === "undefined" || document.visibilityState === "visible";

/**
 * One chat's messages and the composer (spec §2): Enter sends, Shift+Enter breaks the line, blank text is
 * not sent (spec §5). Older messages load when scrolled under 600 px from the top (spec §9) and the view
 * keeps its place; new messages follow when the view is at the bottom. Opening the chat, and each message
 * arriving while it is open and the tab visible, resets the caller's unread count (spec §4).
 */
export function ChatPane({ chat, onBack, onDeleted }: { chat: ChatDTO; onBack?: () => void; onDeleted?: () => void }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const query = useChatMessages(chat.id);
  const messages = useMemo(() => flattenChatMessages(query.data), [query.data]);
  const send = useSendChatMessage(chat.id);
  const markRead = useMarkChatRead();
  const [text, setText] = useState("");
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const anchor = useRef<{ height: number; top: number } | null>(null);
  const nearBottom = useRef(true);
  const initialScrollDone = useRef(false);
  const markReadRef = useRef(markRead.mutate);
  markReadRef.current = markRead.mutate;

  useEffect(() => {
    markReadRef.current(chat.id);
  }, [chat.id]);

  useChatRoom(chat.id, {
    onMessage: (message) => {
      if (message.senderId !== user?.id && isVisible()) markRead.mutate(chat.id);
    },
    onDeleted: () => onDeleted?.(),
  });

  // Back in the tab with the chat open: what arrived meanwhile is read now.
  useEffect(() => {
    const onVisible = () => {
      if (isVisible()) markReadRef.current(chat.id);
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [chat.id]);

  const first = messages[0];
  const last = messages.at(-1);

  // Older messages were put above: keep what the user was looking at where it was.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el || !anchor.current) return;
    el.scrollTop = el.scrollHeight - anchor.current.height + anchor.current.top;
    anchor.current = null;
  }, [first?.id]);

  // First page: start at the bottom; afterwards follow new messages when at the bottom or when sent by us.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el || !last) return;
    if (!initialScrollDone.current || nearBottom.current || last.senderId === user?.id) {
      el.scrollTop = el.scrollHeight;
      initialScrollDone.current = true;
    }
  }, [last?.id, last, user?.id]);

  // A fetch that brought nothing older (or failed) releases the anchor, so scrolling up can ask again.
  useEffect(() => {
    if (!query.isFetchingNextPage) anchor.current = null;
  }, [query.isFetchingNextPage]);

  // A short first page does not fill the pane (no scroll bar, no scroll event): keep loading older ones.
  useEffect(() => {
    const el = scrollRef.current;
    if (!el || !initialScrollDone.current || anchor.current || !query.hasNextPage || query.isFetchingNextPage) return;
    if (el.scrollHeight <= el.clientHeight + 1) {
      anchor.current = { height: el.scrollHeight, top: el.scrollTop };
      void query.fetchNextPage();
    }
  }, [messages.length, query]);

  const loadOlderIfNear = (el: HTMLElement) => {
    if (el.scrollTop >= CHAT_LOAD_OLDER_PX || anchor.current || !query.hasNextPage || query.isFetchingNextPage) return;
    anchor.current = { height: el.scrollHeight, top: el.scrollTop };
    void query.fetchNextPage();
  };

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const el = event.currentTarget;
    nearBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 150;
    if (initialScrollDone.current) loadOlderIfNear(el);
  };

  const submit = () => {
    const message = text.trim();
    if (!message || send.isPending) return;
    setText("");
    send.mutate(message, { onError: () => setText((current) => current || message) });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <Paper variant="outlined" sx={{ display: "flex", flexDirection: "column", height: "100%", minHeight: 0 }} data-testid="chat-pane">
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, px: 2, py: 1, borderBottom: 1, borderColor: "divider" }}>
        {onBack && (
          <IconButton aria-label={t("chats.pane.back")} onClick={onBack} edge="start">
            <ArrowBack />
          </IconButton>
        )}
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="subtitle1" component="h2" noWrap>
            {chat.title}
          </Typography>
          <Typography variant="caption" color="text.secondary" noWrap component="p">
            {chat.users.map((u) => u.user.name).join(", ")}
          </Typography>
        </Box>
      </Box>
      <Box
        ref={scrollRef}
        onScroll={onScroll}
        role="log"
        aria-label={t("chats.pane.messages")}
        data-testid="chat-messages"
        sx={(theme) => ({ flex: 1, minHeight: 0, overflowY: "auto", px: 2, py: 1, bgcolor: theme.palette.mode === "dark" ? "#0b141a" : "#efeae2" })}
      >
        {query.isFetchingNextPage && (
          <Box sx={{ display: "flex", justifyContent: "center", py: 1 }}>
            <CircularProgress size={20} aria-label={t("common.loading")} />
          </Box>
        )}
        {query.isLoading && <LoadingState />}
        {query.isError && (
          <EmptyState title={t("chats.pane.loadFailed")} action={<Button onClick={() => void query.refetch()}>{t("chats.pane.tryAgain")}</Button>} />
        )}
        {query.isSuccess && messages.length === 0 && <EmptyState title={t("chats.pane.empty")} />}
        {messages.map((m) => (
          <Bubble key={m.id} message={m} mine={m.senderId === user?.id} unknownSender={t("chats.pane.unknownSender")} />
        ))}
      </Box>
      <Box sx={{ display: "flex", alignItems: "flex-end", gap: 1, p: 1, borderTop: 1, borderColor: "divider" }}>
        <TextField
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder={t("chats.pane.placeholder")}
          slotProps={{ htmlInput: { "aria-label": t("chats.pane.input") } }}
          multiline
          maxRows={5}
          fullWidth
          size="small"
        />
        <Tooltip title={t("chats.pane.send")}>
          <span>
            <IconButton color="primary" aria-label={t("chats.pane.send")} onClick={submit} disabled={!text.trim() || send.isPending}>
              <Send />
            </IconButton>
          </span>
        </Tooltip>
      </Box>
    </Paper>
  );
}

function Bubble({ message, mine, unknownSender }: { message: ChatMessageDTO; mine: boolean; unknownSender: string }) {
  return (
    <Box sx={{ display: "flex", justifyContent: mine ? "flex-end" : "flex-start", my: 0.5 }} data-testid="chat-message" data-mine={mine}>
      <Paper
        elevation={0}
        sx={(theme) => ({
          px: 1.5,
          py: 0.75,
          maxWidth: "75%",
          bgcolor: mine ? (theme.palette.mode === "dark" ? "#005c4b" : "#d9fdd3") : "background.paper",
        })}
      >
        {!mine && (
          <Typography variant="caption" color="primary" component="p" sx={{ fontWeight: 600 }}>
            {message.sender?.name ?? unknownSender}
          </Typography>
        )}
        <Typography variant="body2" component="p" sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
          <MessageText text={message.message} tickets={message.tickets} />
        </Typography>
        <Typography variant="caption" color="text.secondary" component="p" sx={{ textAlign: "right" }}>
          {formatDateTime(message.createdAt)}
        </Typography>
      </Paper>
    </Box>
  );
}
