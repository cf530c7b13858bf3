import type { AnnouncementDTO } from "@balcao/shared";
import { Badge, Box, CircularProgress, IconButton, List, ListItemButton, ListItemText, Popover, Tooltip, Typography, useTheme } from "@mui/material";
import CampaignOutlined from "@mui/icons-material/CampaignOutlined";
import { useMemo, useState, type UIEvent } from "react";
import { useTranslation } from "react-i18next";
import { isNearEnd } from "../../components/InfiniteScrollArea";
import { uniqueById } from "../../components/uniqueById";
import { useAnnouncementsFeed, useAnnouncementsRealtime } from "./api";
import { AnnouncementViewer } from "./AnnouncementViewer";
import { priorityColor } from "./priority";
import { formatLocalDate } from "../../app/format";

/**
 * Top-bar announcements (spec §2): a badge with the user's unread count; the popover lists the active
 * announcements (next page within 100 px of the end, spec §9) and opens each in the viewer. Hosts the live
 * `announcement` layer.
 */
export function AnnouncementsPopover() {
  const { t } = useTranslation();
  const theme = useTheme();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [viewing, setViewing] = useState<AnnouncementDTO | null>(null);
  useAnnouncementsRealtime();
  const feed = useAnnouncementsFeed();
  const pages = feed.data?.pages ?? [];
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `pages` is derived from feed.data
  const records = useMemo(() => uniqueById(pages.map((page) => page.records)), [feed.data]);
  const unread = pages[0]?.unreadCount ?? 0;

  const onScroll = (event: UIEvent<HTMLElement>) => {
    if (feed.hasNextPage && !feed.isFetchingNextPage && isNearEnd(event.currentTarget)) void feed.fetchNextPage();
  };

  return (
    <>
      <Tooltip title={t("announcements.popover.title")}>
        <IconButton color="inherit" aria-label={t("announcements.popover.label", { count: unread })} onClick={(e) => setAnchor(e.currentTarget)}>
          <Badge badgeContent={unread} color="error" data-testid="announcements-unread">
            <CampaignOutlined />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
        transformOrigin={{ vertical: "top", horizontal: "right" }}
      >
        <Typography variant="subtitle2" sx={{ px: 2, pt: 1.5, pb: 0.5 }}>
          {t("announcements.popover.title")}
        </Typography>
        <List dense sx={{ width: 360, maxHeight: 420, overflowY: "auto" }} aria-label={t("announcements.popover.title")} onScroll={onScroll}>
          {feed.isPending && (
            <Box sx={{ display: "flex", justifyContent: "center", p: 2 }}>
              <CircularProgress size={24} aria-label={t("common.loading")} />
            </Box>
          )}
          {feed.isError && (
            <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
              {t("errors.listFailed")}
            </Typography>
          )}
          {!feed.isPending && !feed.isError && records.length === 0 && (
            <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
              {t("announcements.popover.empty")}
            </Typography>
          )}
          {records.map((record) => (
            <ListItemButton
              key={record.id}
              data-testid="announcement-item"
              data-unread={record.read === false ? "true" : "false"}
              onClick={() => {
                setAnchor(null);
                setViewing(record);
              }}
              sx={{ borderLeft: 4, borderColor: priorityColor(theme, record.priority), alignItems: "flex-start" }}
            >
              <ListItemText
                primary={record.title}
                secondary={
                  <>
                    <Box component="span" sx={{ display: "block" }}>
                      {formatLocalDate(record.createdAt)}
                    </Box>
                    {record.text.length > 90 ? `${record.text.slice(0, 90)}…` : record.text}
                  </>
                }
                slotProps={{ primary: { noWrap: true, sx: { fontWeight: record.read === false ? 700 : 400 } } }}
              />
              {record.read === false && (
                <Box
                  component="span"
                  aria-label={t("announcements.popover.unread")}
                  sx={{ width: 8, height: 8, borderRadius: "50%", bgcolor: "primary.main", mt: 1, ml: 1, flexShrink: 0 }}
                />
              )}
            </ListItemButton>
          ))}
          {feed.isFetchingNextPage && (
            <Box sx={{ display: "flex", justifyContent: "center", p: 1 }}>
              <CircularProgress size={20} aria-label={t("common.loading")} />
            </Box>
          )}
        </List>
      </Popover>
      <AnnouncementViewer announcement={viewing} onClose={() => setViewing(null)} />
    </>
  );
}
