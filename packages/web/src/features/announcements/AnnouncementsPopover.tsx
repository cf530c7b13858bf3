import type { AnnouncementDTO } from "@balcao/shared";
import { Box, ListItemButton, ListItemText, useTheme } from "@mui/material";
import CampaignOutlined from "@mui/icons-material/CampaignOutlined";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { TopBarPopover } from "../../components/TopBarPopover";
import { uniqueById } from "../../components/uniqueById";
import { useAnnouncementsFeed, useAnnouncementsRealtime } from "./api";
import { priorityColor } from "./priority";
import { formatLocalDate } from "../../app/format";
import { lazyWhenOpened } from "../../components/lazyWhenOpened";

// Downloaded when an announcement is first opened (issue 20): the viewer's dialog is not needed to show a page.
const AnnouncementViewer = lazyWhenOpened(() => import("./AnnouncementViewer").then((module) => module.AnnouncementViewer));

/**
 * Top-bar announcements (spec §2): a badge with the user's unread count; the popover lists the active
 * announcements (next page within 100 px of the end, spec §9) and opens each in the viewer. Hosts the live
 * `announcement` layer.
 */
export function AnnouncementsPopover() {
  const { t } = useTranslation();
  const theme = useTheme();
  const [viewing, setViewing] = useState<AnnouncementDTO | null>(null);
  useAnnouncementsRealtime();
  const feed = useAnnouncementsFeed();
  const pages = feed.data?.pages ?? [];
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `pages` is derived from feed.data
  const records = useMemo(() => uniqueById(pages.map((page) => page.records)), [feed.data]);
  const unread = pages[0]?.unreadCount ?? 0;

  return (
    <>
      <TopBarPopover
        title={t("announcements.popover.title")}
        label={t("announcements.popover.label", { count: unread })}
        icon={<CampaignOutlined />}
        count={unread}
        badgeData={{ "data-testid": "announcements-unread" }}
        feed={feed}
        empty={t("announcements.popover.empty")}
        rowCount={records.length}
        width={360}
      >
        {(close) =>
          records.map((record) => (
            <ListItemButton
              key={record.id}
              data-testid="announcement-item"
              data-unread={record.read === false ? "true" : "false"}
              onClick={() => {
                close();
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
          ))
        }
      </TopBarPopover>
      <AnnouncementViewer open={!!viewing} announcement={viewing} onClose={() => setViewing(null)} />
    </>
  );
}
