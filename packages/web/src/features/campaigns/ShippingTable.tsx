import type { CampaignShippingListResponse, CampaignShippingStatus } from "@balcao/shared";
import { Box, Chip, MenuItem, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { useState } from "react";
import { EmptyState } from "../../components/EmptyState";
import { InfiniteScrollArea } from "../../components/InfiniteScrollArea";
import { LoadingState } from "../../components/LoadingState";
import { SearchField } from "../../components/SearchField";
import { useListSearch, usePagedList } from "../../components/list/useListData";
import { errorText } from "../../components/toastError";
import { useCampaignShipping } from "./api";
import { formatCampaignTime } from "./status";

export const SHIPPING_STATUS_COLORS: Record<CampaignShippingStatus, "default" | "info" | "warning" | "error" | "success"> = {
  pending: "default",
  confirmation: "info",
  confirmed: "info",
  sending: "warning",
  delivered: "success",
  failed: "error",
};
const STATUSES = Object.keys(SHIPPING_STATUS_COLORS) as CampaignShippingStatus[];

/** The campaign's shipping rows (GET /campaigns/:id/shipping): one per contact, searchable and filtered by state. */
export function ShippingTable({ campaignId, timeZone }: { campaignId: number; timeZone: string }) {
  const { t } = useTranslation();
  const search = useListSearch();
  const [status, setStatus] = useState<CampaignShippingStatus | "">("");
  const list = usePagedList(useCampaignShipping(campaignId, search.searchParam, status), (page: CampaignShippingListResponse) => page.records);
  const title = t("campaigns.report.shipping.title");
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 1, minHeight: 320, flex: 1 }}>
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}>
        <Typography variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          {title}
        </Typography>
        <TextField
          select
          size="small"
          label={t("campaigns.report.shipping.filter")}
          value={status}
          onChange={(e) => setStatus(e.target.value as CampaignShippingStatus | "")}
          sx={{ minWidth: 200 }}
        >
          <MenuItem value="">{t("campaigns.report.shipping.all")}</MenuItem>
          {STATUSES.map((s) => (
            <MenuItem key={s} value={s}>
              {t(`campaigns.report.shipping.status.${s}`)}
            </MenuItem>
          ))}
        </TextField>
        <SearchField value={search.search} onChange={search.setSearch} />
      </Box>
      <InfiniteScrollArea
        hasMore={list.hasMore}
        loading={list.loading}
        onLoadMore={list.loadMore}
        data-testid="shipping-scroll"
        sx={{ maxHeight: 480 }}
      >
        <Table size="small" stickyHeader aria-label={title}>
          <TableHead>
            <TableRow>
              <TableCell>{t("campaigns.report.shipping.name")}</TableCell>
              <TableCell>{t("campaigns.report.shipping.number")}</TableCell>
              <TableCell>{t("campaigns.report.shipping.state")}</TableCell>
              <TableCell>{t("campaigns.report.shipping.confirmation")}</TableCell>
              <TableCell>{t("campaigns.report.shipping.deliveredAt")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.items.map((s) => (
              <TableRow key={s.id} hover data-testid="shipping-row">
                <TableCell>{s.name}</TableCell>
                <TableCell>{s.number}</TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    color={SHIPPING_STATUS_COLORS[s.status] ?? "default"}
                    label={t(`campaigns.report.shipping.status.${s.status}`, { defaultValue: s.status })}
                    title={s.lastError ? errorText(s.lastError) : undefined}
                  />
                  {s.status === "failed" && s.lastError && (
                    <Typography variant="caption" color="error" component="p">
                      {errorText(s.lastError)}
                    </Typography>
                  )}
                </TableCell>
                <TableCell>
                  {s.confirmation === true
                    ? t("campaigns.report.shipping.confirmed")
                    : s.confirmationRequestedAt
                      ? t("campaigns.report.shipping.awaiting")
                      : "—"}
                </TableCell>
                <TableCell sx={{ whiteSpace: "nowrap" }}>{formatCampaignTime(s.deliveredAt, timeZone) || "—"}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {list.loading && <LoadingState />}
        {list.error && <EmptyState title={t("errors.listFailed")} />}
        {!list.loading && !list.error && list.items.length === 0 && <EmptyState title={t("campaigns.report.shipping.empty")} />}
      </InfiniteScrollArea>
    </Box>
  );
}
