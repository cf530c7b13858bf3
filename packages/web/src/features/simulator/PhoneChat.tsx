import {
  formatPhoneNumber,
  SIMULATOR_EPHEMERAL_SECONDS,
  type SimulatorInboundBody,
  type SimulatorMessageDTO,
  type SimulatorPhoneDTO,
} from "@balcao/shared";
import {
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  Menu,
  MenuItem,
  Paper,
  TextField,
  Tooltip,
  Typography,
} from "@mui/material";
import ArrowBack from "@mui/icons-material/ArrowBack";
import AttachFile from "@mui/icons-material/AttachFile";
import Call from "@mui/icons-material/Call";
import Close from "@mui/icons-material/Close";
import ContactPhone from "@mui/icons-material/ContactPhone";
import ExpandMore from "@mui/icons-material/ExpandMore";
import LooksOne from "@mui/icons-material/LooksOne";
import PhoneCallback from "@mui/icons-material/PhoneCallback";
import Place from "@mui/icons-material/Place";
import Poll from "@mui/icons-material/Poll";
import Schedule from "@mui/icons-material/Schedule";
import Send from "@mui/icons-material/Send";
import TimerOutlined from "@mui/icons-material/TimerOutlined";
import { format } from "date-fns";
import { enqueueSnackbar } from "../../components/toasts";
import { memo, useCallback, useLayoutEffect, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { toastError } from "../../components/toastError";
import { AckIcon } from "../messages/AckIcon";
import { MessageContent, QuotedMessage } from "../messages/MessageContent";
import { simulatorMediaUrl, type SimulatorAccess, type SimulatorActions } from "./api";
import {
  AttachmentDialog,
  LocationDialog,
  PollDialog,
  VcardDialog,
  type LocationValues,
  type PendingFile,
  type PollValues,
  type VcardValues,
} from "./SimulatorDialogs";
import { MAX_FILE_BYTES, mediaKindOf, previewOf, readFileAsBase64, toMessageDTO } from "./simulatorMessages";

/** Largest text a customer message may carry (the API's limit). */
const MAX_TEXT = 4096;
/** The quick reactions WhatsApp offers first. */
const REACTIONS = ["👍", "❤️", "😂", "😮", "😢", "🙏"] as const;

/** A disappearing-messages timer WhatsApp offers (seconds). */
export type EphemeralSeconds = (typeof SIMULATOR_EPHEMERAL_SECONDS)[number];

interface BubbleProps {
  message: SimulatorMessageDTO;
  index: number;
  quoted: SimulatorMessageDTO | undefined;
  mediaUrl: string | null;
  onMenu: (anchor: HTMLElement, message: SimulatorMessageDTO) => void;
}

const SimulatorBubble = memo(function SimulatorBubble({ message, index, quoted, mediaUrl, onMenu }: BubbleProps) {
  const { t } = useTranslation();
  const mine = message.direction === "out";
  const dto = toMessageDTO(message, index, mediaUrl);
  let content;
  if (message.deleted) {
    content = (
      <Typography variant="body2" sx={{ fontStyle: "italic", color: "text.secondary" }}>
        {mine ? t("simulator.chat.deletedByMe") : t("simulator.chat.deletedByCompany")}
      </Typography>
    );
  } else if (message.kind === "call_log") {
    const video = message.body.startsWith("video");
    content = (
      <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
        <PhoneCallback fontSize="small" color="primary" />
        <Typography variant="body2">
          {video ? t("simulator.chat.videoCall") : t("simulator.chat.voiceCall")}
          {message.body.includes("rejeitada") ? ` — ${t("simulator.chat.callRejected")}` : ""}
        </Typography>
      </Box>
    );
  } else {
    content = <MessageContent message={dto} />;
  }
  return (
    <Box
      sx={{ display: "flex", justifyContent: mine ? "flex-end" : "flex-start", px: 1.5, py: 0.25 }}
      data-testid="simulator-message"
      data-direction={message.direction}
      data-kind={message.kind}
      data-deleted={message.deleted ? "true" : "false"}
      data-message-id={message.id}
    >
      <Paper
        elevation={0}
        sx={(theme) => ({
          position: "relative",
          maxWidth: "85%",
          minWidth: 90,
          px: 1.25,
          pt: 0.75,
          pb: 0.5,
          pr: 3.5,
          borderRadius: 2,
          bgcolor: mine ? (theme.palette.mode === "dark" ? "#005c4b" : "#dcf8c6") : "background.paper",
          boxShadow: "0 1px 0.5px rgba(0,0,0,0.13)",
        })}
      >
        {!message.deleted && (
          <IconButton
            size="small"
            aria-label={t("simulator.chat.menu")}
            onClick={(e) => onMenu(e.currentTarget, message)}
            sx={{ position: "absolute", top: 0, right: 0, p: 0.25 }}
          >
            <ExpandMore fontSize="small" />
          </IconButton>
        )}
        {quoted && !message.deleted && (
          <QuotedMessage
            quoted={{
              id: 0,
              body: quoted.deleted ? "" : quoted.body,
              fromMe: quoted.direction === "out",
              mediaType: quoted.kind,
              isDeleted: quoted.deleted,
            }}
          />
        )}
        {content}
        <Box sx={{ display: "flex", alignItems: "center", justifyContent: "flex-end", gap: 0.5, mt: 0.25 }}>
          {message.viewOnce && !message.deleted && (
            <LooksOne fontSize="inherit" color="action" data-testid="simulator-view-once" titleAccess={t("simulator.chat.viewOnce")} />
          )}
          {message.ephemeral && !message.deleted && (
            <TimerOutlined
              fontSize="inherit"
              color="action"
              data-testid="simulator-ephemeral"
              titleAccess={t("simulator.chat.ephemeralMark", { duration: t(`simulator.durations.${message.ephemeral}`) })}
            />
          )}
          {message.edited && !message.deleted && (
            <Typography variant="caption" color="text.secondary" sx={{ fontStyle: "italic" }} data-testid="simulator-edited">
              {t("simulator.chat.edited")}
            </Typography>
          )}
          <Typography variant="caption" color="text.secondary">
            {format(new Date(message.timestamp), "HH:mm")}
          </Typography>
          {message.queued ? (
            <Schedule fontSize="inherit" color="action" data-testid="simulator-queued" titleAccess={t("simulator.chat.queued")} />
          ) : (
            !message.deleted && message.kind !== "call_log" && <AckIcon message={{ ack: message.ack, status: "sent" }} />
          )}
        </Box>
        {message.reaction && !message.deleted && (
          <Chip
            size="small"
            variant="outlined"
            data-testid="simulator-reaction"
            label={message.reaction}
            aria-label={t("simulator.chat.yourReaction", { emoji: message.reaction })}
            sx={{ height: 22, mt: 0.5, bgcolor: "background.paper" }}
          />
        )}
      </Paper>
    </Box>
  );
});

interface PhoneChatProps {
  access: SimulatorAccess;
  phone: SimulatorPhoneDTO;
  actions: SimulatorActions;
  /** Disabled when the session does not run in the process that answered (traffic cannot be injected). */
  disabled: boolean;
  /**
   * The linked connection is down (issue 21): messages can still be written (they wait for the connection), but
   * calls, reactions, edits, deletions and acks need it.
   */
  offline?: boolean;
  onBack?: () => void;
}

type OpenDialog = "location" | "vcard" | "poll" | null;

/** One customer's chat: their messages and the company's replies (with acks), and everything they can send. */
export function PhoneChat({ access, phone, actions, disabled, offline = false, onBack }: PhoneChatProps) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const [textError, setTextError] = useState<string | null>(null);
  const [replyTo, setReplyTo] = useState<SimulatorMessageDTO | null>(null);
  const [menu, setMenu] = useState<{ anchor: HTMLElement; message: SimulatorMessageDTO } | null>(null);
  const [attachMenu, setAttachMenu] = useState<HTMLElement | null>(null);
  const [callMenu, setCallMenu] = useState<HTMLElement | null>(null);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [pending, setPending] = useState<PendingFile | null>(null);
  const [toDelete, setToDelete] = useState<SimulatorMessageDTO | null>(null);
  const [editing, setEditing] = useState<{ message: SimulatorMessageDTO; text: string } | null>(null);
  /** The chat's disappearing-messages timer, as set on the phone: every message sent carries it. */
  const [ephemeral, setEphemeral] = useState<EphemeralSeconds | null>(null);
  const [ephemeralMenu, setEphemeralMenu] = useState<HTMLElement | null>(null);
  const fileRef = useRef<HTMLInputElement | null>(null);
  const inputRef = useRef<HTMLTextAreaElement | null>(null);
  const scrollRef = useRef<HTMLDivElement | null>(null);

  const byId = useMemo(() => new Map(phone.messages.map((m) => [m.id, m])), [phone.messages]);
  const last = phone.messages.at(-1);
  const sending = actions.send.isPending;
  const onMenu = useCallback((anchor: HTMLElement, message: SimulatorMessageDTO) => setMenu({ anchor, message }), []);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [last?.id, last?.ack, last?.deleted, phone.number]);

  const send = async (body: SimulatorInboundBody): Promise<boolean> => {
    try {
      const sent = await actions.send.mutateAsync({ number: phone.number, body: { ...body, ...(ephemeral && { ephemeral }) } });
      if (sent?.queued) enqueueSnackbar(t("simulator.chat.queuedToast"), { variant: "info" });
      return true;
    } catch (err) {
      toastError(err);
      return false;
    }
  };

  const submitText = async (event?: FormEvent) => {
    event?.preventDefault();
    const body = text.trim();
    if (!body) {
      setTextError(t("simulator.validation.textRequired"));
      return;
    }
    if (body.length > MAX_TEXT) {
      setTextError(t("simulator.validation.tooLong"));
      return;
    }
    setTextError(null);
    const ok = await send({ type: "text", body, ...(replyTo && { quotedId: replyTo.id }) });
    if (ok) {
      setText("");
      setReplyTo(null);
      inputRef.current?.focus();
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submitText();
    }
  };

  const pickFile = (file: File | undefined) => {
    if (fileRef.current) fileRef.current.value = "";
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      enqueueSnackbar(t("simulator.validation.fileTooBig", { max: Math.floor(MAX_FILE_BYTES / 1024) }), { variant: "error" });
      return;
    }
    setPending({ kind: mediaKindOf(file.type), file });
  };

  const sendAttachment = async ({ caption, voice, viewOnce }: { caption: string; voice: boolean; viewOnce: boolean }) => {
    if (!pending) return;
    let media: { data?: string; mimeType?: string; fileName?: string } = {};
    if (pending.file) {
      try {
        media = {
          data: await readFileAsBase64(pending.file),
          mimeType: pending.file.type || "application/octet-stream",
          fileName: pending.file.name,
        };
      } catch (err) {
        toastError(err);
        return;
      }
    }
    const body: SimulatorInboundBody =
      pending.kind === "audio"
        ? { type: "audio", voice, ...media }
        : pending.kind === "document"
          ? { type: "document", ...(caption && { caption }), ...media }
          : { type: pending.kind, ...(caption && { caption }), ...(viewOnce && { viewOnce: true }), ...media };
    if (await send(body)) setPending(null);
  };

  const sendLocation = async (values: LocationValues) => {
    if (
      await send({
        type: "location",
        latitude: values.latitude,
        longitude: values.longitude,
        ...(values.description && { description: values.description }),
      })
    )
      setDialog(null);
  };

  const sendVcard = async (values: VcardValues) => {
    if (await send({ type: "vcard", contactName: values.contactName, contactNumber: values.contactNumber })) setDialog(null);
  };

  const sendPoll = async (values: PollValues) => {
    if (await send({ type: "poll", question: values.question, options: values.options })) setDialog(null);
  };

  const call = async (isVideo: boolean) => {
    setCallMenu(null);
    try {
      await actions.call.mutateAsync({ number: phone.number, isVideo });
    } catch (err) {
      toastError(err);
    }
  };

  const ack = async (message: SimulatorMessageDTO, value: 3 | 4) => {
    setMenu(null);
    try {
      await actions.ack.mutateAsync({ number: phone.number, messageId: message.id, ack: value });
    } catch (err) {
      toastError(err);
    }
  };

  const react = async (message: SimulatorMessageDTO, emoji: string) => {
    setMenu(null);
    try {
      await actions.react.mutateAsync({ number: phone.number, messageId: message.id, emoji });
    } catch (err) {
      toastError(err);
    }
  };

  const saveEdit = async (event?: FormEvent) => {
    event?.preventDefault();
    const body = editing?.text.trim() ?? "";
    if (!editing || !body || body === editing.message.body) return;
    try {
      await actions.edit.mutateAsync({ number: phone.number, messageId: editing.message.id, body });
      setEditing(null);
    } catch (err) {
      toastError(err);
    }
  };

  const confirmDelete = async () => {
    if (!toDelete) return;
    try {
      await actions.remove.mutateAsync({ number: phone.number, messageId: toDelete.id });
      enqueueSnackbar(t("simulator.toasts.deleted"), { variant: "success", autoHideDuration: 2000 });
    } catch (err) {
      toastError(err);
    } finally {
      setToDelete(null);
    }
  };

  const kindLabel = (kind: string) => t(`messages.types.${kind}`, { defaultValue: kind });
  const menuMessage = menu?.message;
  const playable = menuMessage && (menuMessage.kind === "audio" || menuMessage.kind === "video");
  const busy = disabled || sending;
  /** What needs the connection itself (not just a phone that writes). */
  const needsConnection = disabled || offline;

  return (
    <Box
      component="section"
      aria-label={t("simulator.chat.label", { name: phone.name })}
      sx={{ display: "flex", flexDirection: "column", height: "100%", minHeight: 0 }}
    >
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, px: 1.5, py: 1, borderBottom: 1, borderColor: "divider" }}>
        {onBack && (
          <IconButton aria-label={t("simulator.chat.back")} onClick={onBack} edge="start">
            <ArrowBack />
          </IconButton>
        )}
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="subtitle1" component="h2" noWrap>
            {phone.name}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {formatPhoneNumber(phone.number)}
          </Typography>
          {ephemeral && (
            <Typography variant="caption" color="text.secondary" component="p" data-testid="simulator-ephemeral-on">
              {t("simulator.chat.ephemeralOn", { duration: t(`simulator.durations.${ephemeral}`) })}
            </Typography>
          )}
        </Box>
        <Tooltip title={t("simulator.chat.ephemeral")}>
          <IconButton
            aria-label={t("simulator.chat.ephemeral")}
            aria-haspopup="menu"
            color={ephemeral ? "primary" : "default"}
            onClick={(e) => setEphemeralMenu(e.currentTarget)}
          >
            <TimerOutlined />
          </IconButton>
        </Tooltip>
        <Tooltip title={t("simulator.chat.call")}>
          <span>
            <IconButton
              aria-label={t("simulator.chat.call")}
              aria-haspopup="menu"
              disabled={needsConnection || actions.call.isPending}
              onClick={(e) => setCallMenu(e.currentTarget)}
            >
              {actions.call.isPending ? <CircularProgress size={20} /> : <Call />}
            </IconButton>
          </span>
        </Tooltip>
      </Box>

      <Box
        ref={scrollRef}
        role="log"
        aria-label={t("simulator.chat.messages")}
        sx={(theme) => ({ flex: 1, minHeight: 0, overflowY: "auto", py: 1, bgcolor: theme.palette.mode === "dark" ? "#0b141a" : "#efeae2" })}
      >
        {phone.messages.length === 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ textAlign: "center", p: 2 }}>
            {t("simulator.chat.empty")}
          </Typography>
        )}
        {phone.messages.map((message, index) => (
          <SimulatorBubble
            key={message.id}
            message={message}
            index={index}
            quoted={message.quotedId ? byId.get(message.quotedId) : undefined}
            mediaUrl={message.hasMedia ? simulatorMediaUrl(access, phone.number, message.id) : null}
            onMenu={onMenu}
          />
        ))}
      </Box>

      {replyTo && (
        <Box sx={{ display: "flex", alignItems: "center", gap: 1, px: 1.5, pt: 1 }} data-testid="simulator-reply-banner">
          <Box sx={{ flex: 1, minWidth: 0, borderLeft: 4, borderColor: "primary.main", pl: 1 }}>
            <Typography variant="caption" color="primary">
              {t("simulator.chat.replyingTo")}
            </Typography>
            <Typography variant="body2" noWrap>
              {previewOf(replyTo, { deleted: t("simulator.chat.deleted"), kind: kindLabel })}
            </Typography>
          </Box>
          <IconButton size="small" aria-label={t("simulator.chat.cancelReply")} onClick={() => setReplyTo(null)}>
            <Close fontSize="small" />
          </IconButton>
        </Box>
      )}

      <Box
        component="form"
        noValidate
        onSubmit={(e) => void submitText(e)}
        sx={{ display: "flex", alignItems: "flex-end", gap: 0.5, p: 1, borderTop: 1, borderColor: "divider" }}
      >
        <Tooltip title={t("simulator.chat.attach")}>
          <span>
            <IconButton aria-label={t("simulator.chat.attach")} aria-haspopup="menu" disabled={busy} onClick={(e) => setAttachMenu(e.currentTarget)}>
              <AttachFile />
            </IconButton>
          </span>
        </Tooltip>
        <Tooltip title={t("simulator.chat.location")}>
          <span>
            <IconButton aria-label={t("simulator.chat.location")} disabled={busy} onClick={() => setDialog("location")}>
              <Place />
            </IconButton>
          </span>
        </Tooltip>
        <Tooltip title={t("simulator.chat.vcard")}>
          <span>
            <IconButton aria-label={t("simulator.chat.vcard")} disabled={busy} onClick={() => setDialog("vcard")}>
              <ContactPhone />
            </IconButton>
          </span>
        </Tooltip>
        <Tooltip title={t("simulator.chat.poll")}>
          <span>
            <IconButton aria-label={t("simulator.chat.poll")} disabled={busy} onClick={() => setDialog("poll")}>
              <Poll />
            </IconButton>
          </span>
        </Tooltip>
        <TextField
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            if (textError) setTextError(null);
          }}
          onKeyDown={onKeyDown}
          inputRef={inputRef}
          placeholder={t("simulator.chat.placeholder")}
          multiline
          maxRows={5}
          size="small"
          fullWidth
          disabled={disabled}
          error={!!textError}
          helperText={textError ?? undefined}
          slotProps={{ htmlInput: { "aria-label": t("simulator.chat.input"), maxLength: MAX_TEXT } }}
        />
        <IconButton type="submit" color="primary" aria-label={t("simulator.chat.send")} disabled={busy}>
          {sending ? <CircularProgress size={20} /> : <Send />}
        </IconButton>
        <input
          ref={fileRef}
          type="file"
          hidden
          data-testid="simulator-file-input"
          aria-label={t("simulator.chat.pickFile")}
          onChange={(e) => pickFile(e.target.files?.[0])}
        />
      </Box>

      <Menu anchorEl={attachMenu} open={!!attachMenu} onClose={() => setAttachMenu(null)}>
        <MenuItem
          onClick={() => {
            setAttachMenu(null);
            fileRef.current?.click();
          }}
        >
          {t("simulator.chat.pickFile")}
        </MenuItem>
        {(["image", "video", "audio", "document"] as const).map((kind) => (
          <MenuItem
            key={kind}
            onClick={() => {
              setAttachMenu(null);
              setPending({ kind, file: null });
            }}
          >
            {t(`simulator.chat.sample.${kind}`)}
          </MenuItem>
        ))}
      </Menu>
      <Menu anchorEl={ephemeralMenu} open={!!ephemeralMenu} onClose={() => setEphemeralMenu(null)}>
        {([null, ...SIMULATOR_EPHEMERAL_SECONDS] as const).map((seconds) => (
          <MenuItem
            key={seconds ?? "off"}
            role="menuitemradio"
            aria-checked={ephemeral === seconds}
            selected={ephemeral === seconds}
            onClick={() => {
              setEphemeral(seconds);
              setEphemeralMenu(null);
            }}
          >
            {seconds ? t(`simulator.durations.${seconds}`) : t("simulator.chat.ephemeralOff")}
          </MenuItem>
        ))}
      </Menu>
      <Menu anchorEl={callMenu} open={!!callMenu} onClose={() => setCallMenu(null)}>
        <MenuItem onClick={() => void call(false)}>{t("simulator.chat.voiceCall")}</MenuItem>
        <MenuItem onClick={() => void call(true)}>{t("simulator.chat.videoCall")}</MenuItem>
      </Menu>
      <Menu anchorEl={menu?.anchor ?? null} open={!!menu} onClose={() => setMenu(null)}>
        {menuMessage?.kind !== "call_log" && (
          <MenuItem
            onClick={() => {
              if (menuMessage) setReplyTo(menuMessage);
              setMenu(null);
              inputRef.current?.focus();
            }}
          >
            {t("simulator.chat.reply")}
          </MenuItem>
        )}
        {menuMessage && menuMessage.kind !== "call_log" && (
          <Box role="group" aria-label={t("simulator.chat.react")} sx={{ display: "flex", px: 1, pb: 0.5 }}>
            {REACTIONS.map((emoji) => (
              <IconButton
                key={emoji}
                size="small"
                aria-label={t("simulator.chat.reactWith", { emoji })}
                aria-pressed={menuMessage.reaction === emoji}
                disabled={needsConnection || !!menuMessage.queued}
                onClick={() => void react(menuMessage, emoji)}
                sx={{ fontSize: 18, width: 32, height: 32, bgcolor: menuMessage.reaction === emoji ? "action.selected" : undefined }}
              >
                {emoji}
              </IconButton>
            ))}
          </Box>
        )}
        {menuMessage?.reaction && (
          <MenuItem disabled={needsConnection} onClick={() => void react(menuMessage, "")}>
            {t("simulator.chat.removeReaction")}
          </MenuItem>
        )}
        {menuMessage?.direction === "out" && menuMessage.kind === "chat" && (
          <MenuItem
            disabled={needsConnection || !!menuMessage.queued}
            onClick={() => {
              setEditing({ message: menuMessage, text: menuMessage.body });
              setMenu(null);
            }}
          >
            {t("simulator.chat.edit")}
          </MenuItem>
        )}
        {menuMessage?.direction === "in" && (
          <MenuItem disabled={needsConnection || menuMessage.ack >= 3} onClick={() => void ack(menuMessage, 3)}>
            {t("simulator.chat.markRead")}
          </MenuItem>
        )}
        {menuMessage?.direction === "in" && playable && (
          <MenuItem disabled={needsConnection || menuMessage.ack >= 4} onClick={() => void ack(menuMessage, 4)}>
            {t("simulator.chat.markPlayed")}
          </MenuItem>
        )}
        {menuMessage?.direction === "out" && menuMessage.kind !== "call_log" && (
          <MenuItem
            disabled={needsConnection || !!menuMessage.queued}
            onClick={() => {
              setToDelete(menuMessage);
              setMenu(null);
            }}
          >
            {t("simulator.chat.delete")}
          </MenuItem>
        )}
      </Menu>

      {dialog === "location" && <LocationDialog open busy={sending} onClose={() => setDialog(null)} onSubmit={sendLocation} />}
      {dialog === "vcard" && <VcardDialog open busy={sending} onClose={() => setDialog(null)} onSubmit={sendVcard} />}
      {dialog === "poll" && <PollDialog open busy={sending} onClose={() => setDialog(null)} onSubmit={sendPoll} />}
      {pending && <AttachmentDialog pending={pending} busy={sending} onClose={() => setPending(null)} onSubmit={sendAttachment} />}
      <Dialog open={!!editing} onClose={() => setEditing(null)} fullWidth maxWidth="xs">
        <form onSubmit={(e) => void saveEdit(e)}>
          <DialogTitle>{t("simulator.chat.editTitle")}</DialogTitle>
          <DialogContent>
            <TextField
              autoFocus
              fullWidth
              multiline
              maxRows={6}
              margin="dense"
              value={editing?.text ?? ""}
              onChange={(e) => setEditing((current) => (current ? { ...current, text: e.target.value } : current))}
              slotProps={{ htmlInput: { "aria-label": t("simulator.chat.editInput"), maxLength: MAX_TEXT } }}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setEditing(null)}>{t("common.cancel")}</Button>
            <Button
              type="submit"
              variant="contained"
              disabled={actions.edit.isPending || !editing?.text.trim() || editing.text.trim() === editing.message.body}
            >
              {t("common.save")}
            </Button>
          </DialogActions>
        </form>
      </Dialog>
      <ConfirmationDialog
        open={!!toDelete}
        title={t("simulator.chat.confirmDeleteTitle")}
        onClose={() => setToDelete(null)}
        onConfirm={() => void confirmDelete()}
        confirmLabel={t("common.delete")}
        loading={actions.remove.isPending}
      >
        {t("simulator.chat.confirmDeleteMessage")}
      </ConfirmationDialog>
    </Box>
  );
}
