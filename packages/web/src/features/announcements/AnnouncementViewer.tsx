import type { AnnouncementDTO } from "@balcao/shared";
import { Box, Button, Chip, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Typography, useTheme } from "@mui/material";
import { useEffect, useId } from "react";
import { useTranslation } from "react-i18next";
import { useMediaBlobUrl } from "../messages/media";
import { useMarkAnnouncementRead } from "./api";
import { PRIORITY_KEYS, priorityColor } from "./priority";
import { formatDateTime } from "../../app/format";

interface AnnouncementViewerProps {
  open: boolean;
  announcement: AnnouncementDTO | null;
  onClose: () => void;
}

/** The announcement viewer modal (spec §2): title, priority, date, text and the attached image; opening it marks it read. */
export function AnnouncementViewer({ open, announcement, onClose }: AnnouncementViewerProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const markRead = useMarkAnnouncementRead();
  const id = announcement?.id;
  const unread = announcement?.read === false;

  useEffect(() => {
    if (id && unread) markRead.mutate(id);
    // Once per opened announcement, not again when its cached copy changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- deliberately keyed on the id alone
  }, [id]);

  return (
    <Dialog open={open && !!announcement} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby={titleId}>
      {announcement && (
        <>
          <DialogTitle id={titleId} sx={{ display: "flex", alignItems: "center", gap: 1.5, flexWrap: "wrap" }}>
            <Box component="span" sx={{ flexGrow: 1 }}>
              {announcement.title}
            </Box>
            <PriorityChip priority={announcement.priority} />
          </DialogTitle>
          <DialogContent dividers>
            <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1.5 }}>
              {formatDateTime(announcement.createdAt)}
            </Typography>
            <Typography sx={{ whiteSpace: "pre-line", overflowWrap: "anywhere" }}>{announcement.text}</Typography>
            {announcement.mediaPath && <AnnouncementImage path={announcement.mediaPath} name={announcement.mediaName ?? ""} />}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose} autoFocus>
              {t("announcements.viewer.close")}
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}

export function PriorityChip({ priority }: { priority: AnnouncementDTO["priority"] }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const color = priorityColor(theme, priority);
  return (
    <Chip
      size="small"
      label={t(`announcements.priority.${PRIORITY_KEYS[priority]}`)}
      data-priority={priority}
      sx={{ bgcolor: color, color: theme.palette.getContrastText(color), fontWeight: 500 }}
    />
  );
}

/** The attachment is fetched with the user's token (media routes are authorised), shown from a blob URL. */
function AnnouncementImage({ path, name }: { path: string; name: string }) {
  const { t } = useTranslation();
  const { src, error, loading } = useMediaBlobUrl(path);
  if (loading) return <CircularProgress size={24} sx={{ display: "block", mt: 2 }} aria-label={t("common.loading")} />;
  if (error || !src)
    return (
      <Typography color="text.secondary" sx={{ mt: 2 }}>
        {t("announcements.viewer.imageFailed")}
      </Typography>
    );
  return <Box component="img" src={src} alt={name} sx={{ display: "block", maxWidth: "100%", maxHeight: 420, mt: 2, borderRadius: 1 }} />;
}
