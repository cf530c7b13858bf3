import type { MessageDTO, QuotedMessageDTO } from "@balcao/shared";
import { Box, Button, CircularProgress, Dialog, IconButton, Link, Typography } from "@mui/material";
import AttachFile from "@mui/icons-material/AttachFile";
import Close from "@mui/icons-material/Close";
import Download from "@mui/icons-material/Download";
import PersonAddAlt from "@mui/icons-material/PersonAddAlt";
import PhoneMissed from "@mui/icons-material/PhoneMissed";
import Place from "@mui/icons-material/Place";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toastError } from "../../components/toastError";
import { downloadMedia, useMediaBlobUrl } from "./media";
import { parseVcard } from "./vcard";
import { safeHref, WhatsAppText } from "./whatsappFormat";

const mediaBoxSx = { maxWidth: 300, width: "100%", borderRadius: 1, display: "block" } as const;

function ImageMessage({ message }: { message: MessageDTO }) {
  const { t } = useTranslation();
  const { src, error, loading } = useMediaBlobUrl(message.mediaUrl);
  const [open, setOpen] = useState(false);
  if (loading) return <CircularProgress size={24} aria-label={t("common.loading")} />;
  if (error || !src)
    return (
      <Typography variant="body2" color="text.secondary">
        {t("messages.media.unavailable")}
      </Typography>
    );
  return (
    <>
      <Box
        component="button"
        type="button"
        onClick={() => setOpen(true)}
        aria-label={t("messages.media.enlarge")}
        sx={{ p: 0, border: 0, background: "none", cursor: "zoom-in", display: "block" }}
      >
        <Box
          component="img"
          src={src}
          alt={message.mediaName ?? t("messages.media.image")}
          sx={{ ...mediaBoxSx, maxHeight: message.mediaType === "sticker" ? 150 : 300, objectFit: "cover" }}
        />
      </Box>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="lg" aria-label={t("messages.media.image")}>
        <IconButton
          aria-label={t("messages.close")}
          onClick={() => setOpen(false)}
          sx={{ position: "absolute", right: 8, top: 8, bgcolor: "background.paper" }}
        >
          <Close />
        </IconButton>
        <Box
          component="img"
          src={src}
          alt={message.mediaName ?? t("messages.media.image")}
          sx={{ maxWidth: "90vw", maxHeight: "85vh", display: "block" }}
        />
      </Dialog>
    </>
  );
}

function PlayableMessage({ message, kind }: { message: MessageDTO; kind: "audio" | "video" }) {
  const { t } = useTranslation();
  const { src, error, loading } = useMediaBlobUrl(message.mediaUrl);
  if (loading) return <CircularProgress size={24} aria-label={t("common.loading")} />;
  if (error || !src)
    return (
      <Typography variant="body2" color="text.secondary">
        {t("messages.media.unavailable")}
      </Typography>
    );
  return kind === "audio" ? (
    <Box
      component="audio"
      controls
      src={src}
      preload="metadata"
      sx={{ maxWidth: 300, width: 260, display: "block" }}
      aria-label={t("messages.media.audio")}
    />
  ) : (
    <Box component="video" controls src={src} preload="metadata" sx={mediaBoxSx} aria-label={t("messages.media.video")} />
  );
}

function DocumentMessage({ message }: { message: MessageDTO }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const name = message.mediaName || t("messages.media.document");
  const download = async () => {
    if (!message.mediaUrl) return;
    setBusy(true);
    try {
      await downloadMedia(message.mediaUrl, name);
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      variant="outlined"
      size="small"
      startIcon={busy ? <CircularProgress size={16} /> : <Download />}
      onClick={() => void download()}
      disabled={!message.mediaUrl || busy}
      sx={{ textTransform: "none", maxWidth: 300 }}
    >
      <Box component="span" sx={{ overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}>
        {t("messages.media.download", { name })}
      </Box>
    </Button>
  );
}

/** Location body: "<picture>|<maps link>|<description>". Only data:image and https pictures are shown. */
export function parseLocation(body: string): { picture: string | null; link: string | null; description: string } {
  const [picture = "", link = "", ...description] = body.split("|");
  const safePicture =
    /^data:image\/(png|jpe?g|gif|webp);base64,[A-Za-z0-9+/=]+$/.test(picture.trim()) || /^https:\/\//.test(picture.trim()) ? picture.trim() : null;
  return { picture: safePicture, link: safeHref(link), description: description.join("|").trim() };
}

function LocationMessage({ message }: { message: MessageDTO }) {
  const { t } = useTranslation();
  const { picture, link, description } = parseLocation(message.body);
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 0.5, maxWidth: 300 }}>
      {picture ? (
        <Box component="img" src={picture} alt={t("messages.location.title")} sx={mediaBoxSx} />
      ) : (
        <Place color="error" sx={{ fontSize: 40 }} />
      )}
      {link && (
        <Link href={link} target="_blank" rel="noopener noreferrer">
          {t("messages.location.view")}
        </Link>
      )}
      {description && <Typography variant="body2">{description}</Typography>}
    </Box>
  );
}

function VcardMessage({ message, onStartTicket }: { message: MessageDTO; onStartTicket?: (card: ReturnType<typeof parseVcard>) => void }) {
  const { t } = useTranslation();
  const card = parseVcard(message.body);
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 1, minWidth: 200 }}>
      <Typography variant="subtitle2">{card.name}</Typography>
      {card.number && <Typography variant="body2">+{card.number}</Typography>}
      {onStartTicket && card.number && (
        <Button size="small" variant="outlined" startIcon={<PersonAddAlt />} onClick={() => onStartTicket(card)}>
          {t("messages.vcard.startTicket")}
        </Button>
      )}
    </Box>
  );
}

export function QuotedMessage({ quoted }: { quoted: QuotedMessageDTO }) {
  const { t } = useTranslation();
  const text = quoted.isDeleted
    ? t("messages.deletedByContact")
    : quoted.body || t(`messages.types.${quoted.mediaType}`, { defaultValue: quoted.mediaType });
  return (
    <Box
      sx={{
        borderLeft: 4,
        borderColor: quoted.fromMe ? "primary.main" : "secondary.main",
        bgcolor: "action.hover",
        borderRadius: 1,
        px: 1,
        py: 0.5,
        mb: 0.5,
        overflow: "hidden",
      }}
      data-testid="quoted-message"
    >
      <Typography variant="caption" color={quoted.fromMe ? "primary" : "secondary"} component="p" sx={{ fontWeight: 600 }}>
        {quoted.fromMe ? t("messages.you") : t("messages.contact")}
      </Typography>
      <Typography
        variant="body2"
        sx={{ whiteSpace: "pre-wrap", display: "-webkit-box", WebkitLineClamp: 3, WebkitBoxOrient: "vertical", overflow: "hidden" }}
      >
        {text}
      </Typography>
    </Box>
  );
}

/** The inside of a bubble, per message kind (spec §2). */
export function MessageContent({ message, onStartTicket }: { message: MessageDTO; onStartTicket?: (card: ReturnType<typeof parseVcard>) => void }) {
  const { t } = useTranslation();
  if (message.isDeleted) {
    return (
      <Typography variant="body2" sx={{ fontStyle: "italic", color: "text.secondary" }}>
        {message.fromMe ? t("messages.deletedByMe") : t("messages.deletedByContact")}
      </Typography>
    );
  }
  const caption = message.body && message.body !== message.mediaName ? message.body : "";
  const text = (value: string) =>
    value ? (
      <Typography variant="body2" component="div" sx={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
        <WhatsAppText text={value} />
      </Typography>
    ) : null;

  if (message.id < 0 && message.mediaName) {
    return (
      <>
        <Typography variant="body2" sx={{ display: "flex", alignItems: "center", gap: 0.5 }}>
          <AttachFile fontSize="inherit" /> {message.mediaName}
        </Typography>
        {text(caption)}
      </>
    );
  }

  switch (message.mediaType) {
    case "image":
    case "sticker":
      return (
        <>
          {message.mediaUrl ? <ImageMessage message={message} /> : null}
          {message.mediaType === "image" && text(caption)}
        </>
      );
    case "audio":
      return message.mediaUrl ? <PlayableMessage message={message} kind="audio" /> : text(message.body);
    case "video":
      return (
        <>
          {message.mediaUrl ? <PlayableMessage message={message} kind="video" /> : null}
          {text(caption)}
        </>
      );
    case "document":
    case "application":
      return (
        <>
          <DocumentMessage message={message} />
          {text(caption)}
        </>
      );
    case "location":
      return <LocationMessage message={message} />;
    case "vcard":
    case "contactMessage":
      return <VcardMessage message={message} onStartTicket={onStartTicket} />;
    case "call_log":
      return (
        <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
          <PhoneMissed color="error" fontSize="small" />
          <Typography variant="body2">{message.body}</Typography>
        </Box>
      );
    default:
      if (message.mediaUrl) {
        return (
          <>
            <DocumentMessage message={message} />
            {text(caption)}
          </>
        );
      }
      return text(message.body);
  }
}
