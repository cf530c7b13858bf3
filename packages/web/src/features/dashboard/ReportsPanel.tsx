import type { ReportRowDTO, ReportTable } from "@balcao/shared";
import { Alert, Box, Button, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from "@mui/material";
import FileDownloadOutlined from "@mui/icons-material/FileDownloadOutlined";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadingState } from "../../components/LoadingState";
import { toastError } from "../../components/toastError";
import { downloadReport, useReports, type DashboardFilter } from "./api";
import { formatDecimal, formatMinutes } from "./format";

function ReportTableView({
  table,
  rows,
  onExport,
  exporting,
}: {
  table: ReportTable;
  rows: ReportRowDTO[];
  onExport: () => void;
  exporting: boolean;
}) {
  const { t, i18n } = useTranslation();
  const title = t(`dashboard.reports.${table}`);
  const name = (r: ReportRowDTO) => r.name ?? (table === "queues" ? t("dashboard.reports.noQueue") : t("dashboard.reports.deletedUser"));
  return (
    <TableContainer component={Paper} variant="outlined">
      <Box sx={{ display: "flex", alignItems: "center", px: 2, pt: 2, gap: 1 }}>
        <Typography variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          {title}
        </Typography>
        <Button
          size="small"
          startIcon={<FileDownloadOutlined />}
          onClick={onExport}
          disabled={exporting}
          aria-label={t("dashboard.reports.exportCsvOf", { table: title })}
        >
          {t("dashboard.reports.exportCsv")}
        </Button>
      </Box>
      <Table size="small" aria-label={title}>
        <TableHead>
          <TableRow>
            <TableCell>{table === "queues" ? t("dashboard.reports.queue") : t("dashboard.reports.attendant")}</TableCell>
            <TableCell align="right">{t("dashboard.reports.tickets")}</TableCell>
            <TableCell align="right">{t("dashboard.reports.avgWaitTime")}</TableCell>
            <TableCell align="right">{t("dashboard.reports.avgFirstResponse")}</TableCell>
            <TableCell align="right">{t("dashboard.reports.avgSupportTime")}</TableCell>
            <TableCell align="right">{t("dashboard.reports.rating")}</TableCell>
            <TableCell align="right">{t("dashboard.reports.ratings")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={r.id ?? "none"} hover>
              <TableCell>
                {r.color && (
                  <Box
                    component="span"
                    sx={{ display: "inline-block", width: 10, height: 10, borderRadius: "50%", bgcolor: r.color, mr: 1 }}
                    aria-hidden
                  />
                )}
                {name(r)}
              </TableCell>
              <TableCell align="right">{r.tickets}</TableCell>
              <TableCell align="right">{formatMinutes(t, i18n.language, r.avgWaitTime)}</TableCell>
              <TableCell align="right">{formatMinutes(t, i18n.language, r.avgFirstResponse)}</TableCell>
              <TableCell align="right">{formatMinutes(t, i18n.language, r.avgSupportTime)}</TableCell>
              <TableCell align="right">{r.rating === null ? t("dashboard.time.none") : formatDecimal(i18n.language, r.rating)}</TableCell>
              <TableCell align="right">{r.ratings}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** Reports beyond the spec (docs/decisions.md): per queue and per attendant for the filter's period, exportable. */
export function ReportsPanel({ filter }: { filter: DashboardFilter }) {
  const { t, i18n } = useTranslation();
  const reports = useReports(filter, true);
  const [exporting, setExporting] = useState(false);
  const run = async (format: "csv" | "xlsx", table?: ReportTable) => {
    setExporting(true);
    try {
      await downloadReport(filter, format, i18n.language.slice(0, 2), table);
    } catch (err) {
      toastError(err);
    } finally {
      setExporting(false);
    }
  };
  if (reports.isError)
    return (
      <Alert severity="error" action={<Button onClick={() => void reports.refetch()}>{t("dashboard.retry")}</Button>}>
        {t("dashboard.error")}
      </Alert>
    );
  if (!reports.data) return <LoadingState />;
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
      <Box sx={{ display: "flex", alignItems: "center", gap: 2, flexWrap: "wrap" }}>
        <Typography variant="body2" color="text.secondary" sx={{ flexGrow: 1 }}>
          {t("dashboard.reports.note")}
        </Typography>
        <Button variant="contained" startIcon={<FileDownloadOutlined />} onClick={() => void run("xlsx")} disabled={exporting}>
          {exporting ? t("dashboard.reports.exporting") : t("dashboard.reports.exportXlsx")}
        </Button>
      </Box>
      <ReportTableView table="queues" rows={reports.data.queues} onExport={() => void run("csv", "queues")} exporting={exporting} />
      <ReportTableView table="attendants" rows={reports.data.attendants} onExport={() => void run("csv", "attendants")} exporting={exporting} />
    </Box>
  );
}
