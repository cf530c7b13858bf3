import { isAdmin } from "@balcao/shared";
import { Box, Button, ListItemButton, ListItemText, Typography } from "@mui/material";
import NotificationImportantOutlined from "@mui/icons-material/NotificationImportantOutlined";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { formatDateTime } from "../../app/format";
import { TopBarPopover } from "../../components/TopBarPopover";
import { toastError } from "../../components/toastError";
import { uniqueById } from "../../components/uniqueById";
import { useSession } from "../auth/SessionProvider";
import { useMarkNotificationsRead, useNotificationsFeed, useNotificationsRealtime } from "./api";

/**
 * The admins' connection-alert bell (issue 21, item 3): a badge with the alerts the admin has not marked read;
 * each row names the connection, its status and reason, and when; a click opens the connection's health
 * dialog on /connections. Live through `whatsappHealthAlert`. Nothing for other profiles.
 */
export function ConnectionAlertsBell() {
  const { user } = useSession();
  return isAdmin(user) ? <AlertsBell /> : null;
}

function AlertsBell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useNotificationsRealtime();
  const feed = useNotificationsFeed();
  const markRead = useMarkNotificationsRead();
  const pages = feed.data?.pages ?? [];
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `pages` is derived from feed.data
  const records = useMemo(() => uniqueById(pages.map((page) => page.notifications)), [feed.data]);
  const unread = pages[0]?.unreadCount ?? 0;

  return (
    <TopBarPopover
      title={t("notifications.bell.title")}
      label={t("notifications.bell.label", { count: unread })}
      icon={<NotificationImportantOutlined />}
      count={unread}
      badgeData={{ "data-testid": "alerts-unread", "data-count": unread }}
      feed={feed}
      empty={t("notifications.bell.empty")}
      rowCount={records.length}
      width={380}
      action={() => (
        <Button size="small" disabled={unread === 0 || markRead.isPending} onClick={() => markRead.mutate(undefined, { onError: toastError })}>
          {t("notifications.bell.markAllRead")}
        </Button>
      )}
    >
      {(close) =>
        records.map((n) => {
          const reason = n.reason ? t(`connections.reasons.${n.reason}`) : "";
          return (
            <ListItemButton
              key={n.id}
              data-testid="alert-item"
              data-unread={n.read ? "false" : "true"}
              aria-label={t("notifications.bell.open", { name: n.name })}
              onClick={() => {
                close();
                navigate(`/connections?health=${n.connectionId}`);
              }}
              sx={{ alignItems: "flex-start", gap: 1 }}
            >
              <ListItemText
                primary={t("notifications.bell.down", { name: n.name })}
                secondary={
                  <>
                    <Box component="span" sx={{ display: "block" }}>
                      {reason ? `${t(`connections.status.${n.status}`)} · ${reason}` : t(`connections.status.${n.status}`)}
                    </Box>
                    <Typography component="span" variant="caption" color="text.secondary">
                      {formatDateTime(n.at)}
                    </Typography>
                  </>
                }
                slotProps={{ primary: { noWrap: true, sx: { fontWeight: n.read ? 400 : 700 } } }}
              />
              {!n.read && (
                <Box
                  component="span"
                  aria-label={t("notifications.bell.unread")}
                  sx={{ width: 8, height: 8, borderRadius: "50%", bgcolor: "error.main", mt: 1, flexShrink: 0 }}
                />
              )}
            </ListItemButton>
          );
        })
      }
    </TopBarPopover>
  );
}
