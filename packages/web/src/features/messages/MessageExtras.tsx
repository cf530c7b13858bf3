import type { MessageDTO } from "@balcao/shared";
import { Box, Chip, Link, List, ListItem, ListItemText, Popover, Typography } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../../app/format";

/** Reactions under a bubble (issue 21): one chip per emoji with its count; the company's own is highlighted. */
export function MessageReactions({ message }: { message: Pick<MessageDTO, "reactions"> }) {
  const { t } = useTranslation();
  const reactions = message.reactions ?? [];
  if (reactions.length === 0) return null;
  return (
    <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.5, mt: 0.5 }} role="list" aria-label={t("messages.reactions.label")}>
      {reactions.map((r) => (
        <Chip
          key={r.emoji}
          role="listitem"
          size="small"
          data-testid="reaction"
          data-emoji={r.emoji}
          data-count={r.count}
          aria-label={t("messages.reactions.chip", { emoji: r.emoji, count: r.count })}
          label={r.count > 1 ? `${r.emoji} ${r.count}` : r.emoji}
          variant={r.fromMe ? "filled" : "outlined"}
          color={r.fromMe ? "primary" : "default"}
          sx={{ height: 22, bgcolor: r.fromMe ? undefined : "background.paper" }}
        />
      ))}
    </Box>
  );
}

/**
 * The "editada" mark of an edited message (issue 21); it opens the earlier texts, oldest first, each with the
 * time it was replaced.
 */
export function EditedMark({ message }: { message: Pick<MessageDTO, "editedAt" | "edits" | "isDeleted"> }) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  if (!message.editedAt || message.isDeleted) return null;
  const edits = message.edits ?? [];
  return (
    <>
      <Link
        component="button"
        type="button"
        variant="caption"
        color="text.secondary"
        underline="hover"
        data-testid="edited-mark"
        title={t("messages.edited.at", { time: formatDateTime(message.editedAt) })}
        onClick={(e) => setAnchor(e.currentTarget)}
        sx={{ fontStyle: "italic" }}
      >
        {t("messages.edited.mark")}
      </Link>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
        transformOrigin={{ vertical: "top", horizontal: "right" }}
      >
        <Box sx={{ p: 1.5, maxWidth: 360 }} data-testid="edit-history">
          <Typography variant="subtitle2">{t("messages.edited.history")}</Typography>
          {edits.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              {t("messages.edited.noHistory")}
            </Typography>
          ) : (
            <List dense disablePadding>
              {edits.map((e, i) => (
                <ListItem key={`${e.editedAt}-${i}`} disableGutters data-testid="edit-history-item">
                  <ListItemText
                    primary={e.body}
                    secondary={t("messages.edited.replacedAt", { time: formatDateTime(e.editedAt) })}
                    slotProps={{ primary: { sx: { whiteSpace: "pre-wrap", wordBreak: "break-word" } } }}
                  />
                </ListItem>
              ))}
            </List>
          )}
        </Box>
      </Popover>
    </>
  );
}
