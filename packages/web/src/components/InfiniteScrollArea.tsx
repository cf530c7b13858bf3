import { Paper, type PaperProps } from "@mui/material";
import { useCallback, type UIEvent } from "react";

/** Distance from the end (px) at which the next page loads (spec §9: 100 px for lists). */
export const LIST_SCROLL_THRESHOLD_PX = 100;

export function isNearEnd(el: Pick<HTMLElement, "scrollHeight" | "scrollTop" | "clientHeight">, thresholdPx = LIST_SCROLL_THRESHOLD_PX): boolean {
  return el.scrollHeight - (el.scrollTop + el.clientHeight) < thresholdPx;
}

interface InfiniteScrollAreaProps extends Omit<PaperProps, "onScroll"> {
  hasMore: boolean;
  loading: boolean;
  onLoadMore: () => void;
  thresholdPx?: number;
}

/** A scrolling surface that asks for the next page when scrolled near its end. */
export function InfiniteScrollArea({ hasMore, loading, onLoadMore, thresholdPx, sx, children, ...paper }: InfiniteScrollAreaProps) {
  const onScroll = useCallback(
    (event: UIEvent<HTMLDivElement>) => {
      if (hasMore && !loading && isNearEnd(event.currentTarget, thresholdPx)) onLoadMore();
    },
    [hasMore, loading, onLoadMore, thresholdPx],
  );
  return (
    <Paper variant="outlined" {...paper} onScroll={onScroll} sx={{ flex: 1, minHeight: 0, overflowY: "auto", ...sx }}>
      {children}
    </Paper>
  );
}
