import { Badge, Box, CircularProgress, IconButton, List, Popover, Tooltip, Typography } from "@mui/material";
import { useState, type ReactNode, type UIEvent } from "react";
import { useTranslation } from "react-i18next";
import { isNearEnd } from "./InfiniteScrollArea";

/** What the shell needs of the paged query behind the list (a TanStack infinite query fits). */
export interface PopoverFeed {
  isPending: boolean;
  isError: boolean;
  isFetchingNextPage: boolean;
  hasNextPage: boolean;
  fetchNextPage: () => unknown;
}

interface TopBarPopoverProps {
  /** Tooltip, header and the list's accessible name. */
  title: string;
  /** The icon button's accessible name (usually with the count). */
  label: string;
  icon: ReactNode;
  count: number;
  /** data-* attributes of the badge (tests find it by them). */
  badgeData: Record<`data-${string}`, string | number>;
  feed: PopoverFeed;
  /** Shown when the feed loaded and has no rows. */
  empty: string;
  rowCount: number;
  width: number;
  /** Right side of the header (e.g. "open all", "mark all read"); gets `close`. */
  action?: (close: () => void) => ReactNode;
  /** The rows; `close` closes the popover (before navigating). */
  children: (close: () => void) => ReactNode;
}

/**
 * The top bar's popover shell (announcements, internal chats, connection alerts): an icon with a count badge;
 * the popover has a header, then a list with loading, error and empty states that loads the next page within
 * 100 px of its end (spec §9).
 */
export function TopBarPopover({ title, label, icon, count, badgeData, feed, empty, rowCount, width, action, children }: TopBarPopoverProps) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  const onScroll = (event: UIEvent<HTMLElement>) => {
    if (feed.hasNextPage && !feed.isFetchingNextPage && isNearEnd(event.currentTarget)) void feed.fetchNextPage();
  };

  return (
    <>
      <Tooltip title={title}>
        <IconButton color="inherit" aria-label={label} onClick={(e) => setAnchor(e.currentTarget)}>
          <Badge badgeContent={count} color="error" {...badgeData}>
            {icon}
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={close}
        anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
        transformOrigin={{ vertical: "top", horizontal: "right" }}
      >
        <Box sx={{ display: "flex", alignItems: "center", justifyContent: "space-between", gap: 1, px: 2, pt: 1.5, pb: 0.5 }}>
          <Typography variant="subtitle2">{title}</Typography>
          {action?.(close)}
        </Box>
        <List dense sx={{ width, maxHeight: 420, overflowY: "auto" }} aria-label={title} onScroll={onScroll}>
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
          {!feed.isPending && !feed.isError && rowCount === 0 && (
            <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
              {empty}
            </Typography>
          )}
          {children(close)}
          {feed.isFetchingNextPage && (
            <Box sx={{ display: "flex", justifyContent: "center", p: 1 }}>
              <CircularProgress size={20} aria-label={t("common.loading")} />
            </Box>
          )}
        </List>
      </Popover>
    </>
  );
}
