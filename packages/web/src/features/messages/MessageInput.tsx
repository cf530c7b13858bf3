import type { MessageDTO, QuickMessageDTO, TicketDTO } from "@balcao/shared";
import {
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  IconButton,
  List,
  ListItemButton,
  ListItemText,
  Paper,
  Switch,
  TextField,
  Tooltip,
  Typography,
} from "@mui/material";
import AttachFile from "@mui/icons-material/AttachFile";
import CheckCircleOutline from "@mui/icons-material/CheckCircleOutlineOutlined";
import Close from "@mui/icons-material/Close";
import HighlightOff from "@mui/icons-material/HighlightOff";
import InsertDriveFileOutlined from "@mui/icons-material/InsertDriveFileOutlined";
import Mic from "@mui/icons-material/Mic";
import MoodOutlined from "@mui/icons-material/MoodOutlined";
import Send from "@mui/icons-material/Send";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { toastError } from "../../components/toastError";
import { useLocalStorage } from "../../hooks/useLocalStorage";
import { useSession } from "../auth/SessionProvider";
import { useTypingNotifier } from "../tickets/presence";
import { useMessageActions, useQuickMessages } from "./api";
import { cloudApiKeys, useCustomerWindow } from "./cloudApi";
import { TemplateComposer } from "./TemplateComposer";
import { EmojiPicker } from "./EmojiPicker";
import { startRecording, type Recording } from "./voice";
import { useInboxActions } from "../keyboard/inboxActions";

export const SIGN_OPTION_KEY = "signOption";
/** Spec §9: quick-message label preview cut at 35 characters. */
export const QUICK_PREVIEW_CHARS = 35;
/** Spec §9: the composer grows to 5 rows. */
export const COMPOSER_MAX_ROWS = 5;

/** The body actually sent: trimmed, prefixed with `*{name}:*\n` when the sign option is on. */
export function signBody(text: string, userName: string, sign: boolean): string {
  const body = text.trim();
  return sign && userName ? `*${userName}:*\n${body}` : body;
}

export function quickPreview(message: string): string {
  return message.length > QUICK_PREVIEW_CHARS ? `${message.slice(0, QUICK_PREVIEW_CHARS)}...` : message;
}

/** Suggestions when the text starts with '/' and has more than one character, filtered by substring. */
export function quickMessageSuggestions(text: string, list: QuickMessageDTO[]): QuickMessageDTO[] {
  if (!text.startsWith("/") || text.length <= 1) return [];
  const needle = text.slice(1).toLowerCase();
  return list.filter((q) => q.shortcode.toLowerCase().includes(needle) || q.message.toLowerCase().includes(needle));
}

function AttachmentPreview({ files, onCancel, onSend }: { files: File[]; onCancel: () => void; onSend: (caption: string) => void }) {
  const { t } = useTranslation();
  const [caption, setCaption] = useState("");
  const urls = useMemo(() => files.map((f) => (f.type.startsWith("image/") ? URL.createObjectURL(f) : null)), [files]);
  useEffect(() => () => urls.forEach((u) => u && URL.revokeObjectURL(u)), [urls]);
  return (
    <Dialog open onClose={onCancel} maxWidth="sm" fullWidth aria-labelledby="attachment-preview-title">
      <DialogTitle id="attachment-preview-title">{t("messages.composer.attachmentsTitle", { count: files.length })}</DialogTitle>
      <DialogContent dividers sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
        <Box sx={{ display: "flex", flexWrap: "wrap", gap: 1 }}>
          {files.map((file, i) => (
            <Box key={`${file.name}-${i}`} sx={{ width: 140, textAlign: "center" }}>
              {urls[i] ? (
                <Box
                  component="img"
                  src={urls[i] ?? undefined}
                  alt={file.name}
                  sx={{ width: 140, height: 100, objectFit: "cover", borderRadius: 1 }}
                />
              ) : (
                <InsertDriveFileOutlined sx={{ fontSize: 64, color: "text.secondary" }} />
              )}
              <Typography variant="caption" component="p" noWrap title={file.name}>
                {file.name}
              </Typography>
            </Box>
          ))}
        </Box>
        <TextField
          label={t("messages.composer.caption")}
          value={caption}
          onChange={(e) => setCaption(e.target.value)}
          multiline
          maxRows={COMPOSER_MAX_ROWS}
          fullWidth
          autoFocus
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} color="inherit">
          {t("common.cancel")}
        </Button>
        <Button variant="contained" startIcon={<Send />} onClick={() => onSend(caption.trim())}>
          {t("messages.composer.send")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

interface MessageInputProps {
  ticket: TicketDTO;
  replyingTo: MessageDTO | null;
  onCancelReply: () => void;
}

/** The composer of spec §2. */
export function MessageInput({ ticket, replyingTo, onCancelReply }: MessageInputProps) {
  const { t } = useTranslation();
  const { user } = useSession();
  const { send } = useMessageActions(ticket.id);
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  const [sign, setSign] = useLocalStorage<boolean>(SIGN_OPTION_KEY, true);
  const [emojiAnchor, setEmojiAnchor] = useState<HTMLElement | null>(null);
  const [files, setFiles] = useState<File[] | null>(null);
  const [recording, setRecording] = useState<Recording | null>(null);
  const [recordStart, setRecordStart] = useState(0);
  const [now, setNow] = useState(0);
  const [highlight, setHighlight] = useState(0);
  const inputRef = useRef<HTMLTextAreaElement | null>(null);
  const fileRef = useRef<HTMLInputElement | null>(null);
  const open = ticket.status === "open";
  const quick = useQuickMessages(open);
  const suggestions = useMemo(() => quickMessageSuggestions(text, quick.data ?? []), [text, quick.data]);
  const disabled = !open || sending || !!recording;
  const notifyTyping = useTypingNotifier(ticket.id);
  // WhatsApp Cloud API: outside the 24 h window only an approved template may go (TemplateComposer).
  const queryClient = useQueryClient();
  const customerWindow = useCustomerWindow(ticket.id, open);
  // Collision guard (issue 16): sending on a ticket assigned to someone else asks first, once per assignee.
  const assignee = ticket.userId !== null && user && ticket.userId !== user.id ? (ticket.user?.name ?? "") : null;
  const [confirmedFor, setConfirmedFor] = useState<number | null>(null);
  const [pendingSend, setPendingSend] = useState<{ run: () => Promise<void> } | null>(null);
  const guardSend = (run: () => Promise<void>): Promise<void> => {
    if (assignee !== null && confirmedFor !== ticket.userId) {
      setPendingSend({ run });
      return Promise.resolve();
    }
    return run();
  };

  useEffect(() => {
    if (!recording) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [recording]);

  useEffect(() => {
    if (replyingTo) inputRef.current?.focus();
  }, [replyingTo]);

  // Keyboard (issue 16): c focuses the composer; / starts a quick reply ('/' typed into an empty composer; the
  // suggestions follow from the next character, spec §2) and never overwrites a draft.
  useInboxActions({
    focusComposer: !disabled && (() => inputRef.current?.focus()),
    quickReplies:
      !disabled &&
      (() => {
        setText((current) => current || "/");
        setHighlight(0);
        inputRef.current?.focus();
      }),
  });

  const doSend = async (body: string, extra: { files?: File[]; voice?: boolean } = {}) => {
    setSending(true);
    const quotedMsg = replyingTo;
    onCancelReply();
    try {
      // A refusal may mean the window just closed: ask again (the composer then offers the templates).
      if (!(await send({ body, quotedMsg, ...extra }))) void queryClient.invalidateQueries({ queryKey: cloudApiKeys.window(ticket.id) });
    } finally {
      setSending(false);
      setTimeout(() => inputRef.current?.focus(), 0);
    }
  };

  const sendText = async () => {
    if (disabled || !text.trim()) return;
    const body = signBody(text, user?.name ?? "", sign);
    await guardSend(async () => {
      setText("");
      await doSend(body);
    });
  };

  const pickQuick = (q: QuickMessageDTO) => {
    setText(q.message);
    setHighlight(0);
    inputRef.current?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (suggestions.length > 0) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        setHighlight((h) => (h + (e.key === "ArrowDown" ? 1 : suggestions.length - 1)) % suggestions.length);
        return;
      }
      if ((e.key === "Enter" && !e.shiftKey) || e.key === "Tab") {
        e.preventDefault();
        pickQuick(suggestions[Math.min(highlight, suggestions.length - 1)]);
        return;
      }
      if (e.key === "Escape") {
        setText("");
        return;
      }
    }
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void sendText();
    }
  };

  const startVoice = async () => {
    try {
      const rec = await startRecording();
      setRecording(rec);
      setRecordStart(Date.now());
      setNow(Date.now());
    } catch (err) {
      toastError(err instanceof Error && err.name === "NotAllowedError" ? t("messages.composer.micDenied") : err);
      setRecording(null);
    }
  };

  const finishVoice = async () => {
    const rec = recording;
    if (!rec) return;
    setSending(true);
    try {
      const file = await rec.stop();
      setRecording(null);
      if (file) await guardSend(() => doSend("", { files: [file], voice: true }));
    } catch (err) {
      setRecording(null);
      toastError(err);
    } finally {
      setSending(false);
    }
  };

  const cancelVoice = () => {
    recording?.cancel();
    setRecording(null);
  };

  const seconds = recording ? Math.max(0, Math.floor((now - recordStart) / 1000)) : 0;

  if (open && customerWindow.data?.applies && !customerWindow.data.open)
    return <TemplateComposer ticket={ticket} closesAt={customerWindow.data.closesAt} />;

  return (
    <Paper square elevation={0} sx={{ borderTop: 1, borderColor: "divider", p: 1 }}>
      {!open && (
        <Typography variant="body2" color="text.secondary" sx={{ textAlign: "center", pb: 0.5 }} role="note">
          {ticket.status === "pending" ? t("messages.composer.disabledPending") : t("messages.composer.disabledClosed")}
        </Typography>
      )}
      {replyingTo && (
        <Box sx={{ display: "flex", alignItems: "flex-start", gap: 1, mb: 1 }} data-testid="reply-preview">
          <Box sx={{ flex: 1, minWidth: 0, borderLeft: 4, borderColor: "primary.main", bgcolor: "action.hover", borderRadius: 1, px: 1, py: 0.5 }}>
            <Typography variant="caption" color="primary" sx={{ fontWeight: 600 }}>
              {t("messages.composer.replyingTo")}
            </Typography>
            <Typography variant="body2" noWrap>
              {replyingTo.body || t(`messages.types.${replyingTo.mediaType}`, { defaultValue: replyingTo.mediaType })}
            </Typography>
          </Box>
          <IconButton size="small" aria-label={t("messages.composer.cancelReply")} onClick={onCancelReply}>
            <Close fontSize="small" />
          </IconButton>
        </Box>
      )}
      {suggestions.length > 0 && (
        <Paper variant="outlined" sx={{ mb: 1, maxHeight: 220, overflowY: "auto" }}>
          <List dense role="listbox" aria-label={t("messages.composer.quickMessages")}>
            {suggestions.map((q, i) => (
              <ListItemButton
                key={q.id}
                role="option"
                aria-selected={i === highlight}
                selected={i === highlight}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pickQuick(q)}
              >
                <ListItemText primary={`/${q.shortcode} - ${quickPreview(q.message)}`} />
              </ListItemButton>
            ))}
          </List>
        </Paper>
      )}
      <Box sx={{ display: "flex", alignItems: "flex-end", gap: 0.5 }}>
        <Tooltip title={t("messages.composer.emoji")}>
          <span>
            <IconButton aria-label={t("messages.composer.emoji")} disabled={disabled} onClick={(e) => setEmojiAnchor(e.currentTarget)}>
              <MoodOutlined />
            </IconButton>
          </span>
        </Tooltip>
        <Tooltip title={t("messages.composer.attach")}>
          <span>
            <IconButton aria-label={t("messages.composer.attach")} disabled={disabled} onClick={() => fileRef.current?.click()}>
              <AttachFile />
            </IconButton>
          </span>
        </Tooltip>
        <input
          ref={fileRef}
          type="file"
          multiple
          hidden
          data-testid="composer-file-input"
          onChange={(e) => {
            const list = Array.from(e.target.files ?? []).slice(0, 10);
            if (list.length > 0) setFiles(list);
            e.target.value = "";
          }}
        />
        {recording ? (
          <Box sx={{ flex: 1, display: "flex", alignItems: "center", justifyContent: "flex-end", gap: 1, minHeight: 40 }} role="status">
            <Typography variant="body2" color="error">
              {t("messages.composer.recording", { time: `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}` })}
            </Typography>
            <IconButton aria-label={t("messages.composer.cancelRecording")} onClick={cancelVoice} disabled={sending}>
              <HighlightOff color="error" />
            </IconButton>
            <IconButton aria-label={t("messages.composer.sendRecording")} onClick={() => void finishVoice()} disabled={sending}>
              {sending ? <CircularProgress size={20} /> : <CheckCircleOutline color="success" />}
            </IconButton>
          </Box>
        ) : (
          <>
            <TextField
              inputRef={inputRef}
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                setHighlight(0);
                if (e.target.value) notifyTyping();
              }}
              onKeyDown={onKeyDown}
              placeholder={open ? t("messages.composer.placeholder") : ""}
              disabled={disabled}
              multiline
              minRows={1}
              maxRows={COMPOSER_MAX_ROWS}
              fullWidth
              size="small"
              slotProps={{ htmlInput: { "aria-label": t("messages.composer.label"), maxLength: 4096 } }}
            />
            {text.trim() ? (
              <IconButton color="primary" aria-label={t("messages.composer.send")} onClick={() => void sendText()} disabled={disabled}>
                {sending ? <CircularProgress size={20} /> : <Send />}
              </IconButton>
            ) : (
              <Tooltip title={t("messages.composer.record")}>
                <span>
                  <IconButton aria-label={t("messages.composer.record")} onClick={() => void startVoice()} disabled={disabled}>
                    {sending ? <CircularProgress size={20} /> : <Mic />}
                  </IconButton>
                </span>
              </Tooltip>
            )}
          </>
        )}
      </Box>
      <FormControlLabel
        sx={{ ml: 0.5, mt: 0.25 }}
        control={<Switch size="small" checked={sign} onChange={(e) => setSign(e.target.checked)} disabled={!open} />}
        label={<Typography variant="caption">{t("messages.composer.sign")}</Typography>}
      />
      <EmojiPicker
        anchorEl={emojiAnchor}
        onClose={() => setEmojiAnchor(null)}
        onPick={(emoji) => {
          const el = inputRef.current;
          const start = el?.selectionStart ?? text.length;
          const end = el?.selectionEnd ?? text.length;
          setText((prev) => prev.slice(0, start) + emoji + prev.slice(end));
        }}
      />
      {files && (
        <AttachmentPreview
          files={files}
          onCancel={() => setFiles(null)}
          onSend={(caption) => {
            const chosen = files;
            setFiles(null);
            void guardSend(() => doSend(caption, { files: chosen }));
          }}
        />
      )}
      <ConfirmationDialog
        open={!!pendingSend}
        title={t("messages.composer.assignedConfirmTitle", { name: assignee ?? "" })}
        onClose={() => setPendingSend(null)}
        onConfirm={() => {
          const run = pendingSend?.run;
          setPendingSend(null);
          setConfirmedFor(ticket.userId);
          if (run) void run().catch(toastError);
        }}
        confirmLabel={t("messages.composer.assignedConfirmSend")}
      >
        {t("messages.composer.assignedConfirmMessage", { name: assignee ?? "" })}
      </ConfirmationDialog>
    </Paper>
  );
}
