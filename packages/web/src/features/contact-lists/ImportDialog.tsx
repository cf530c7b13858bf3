import type { ContactListImportDTO } from "@balcao/shared";
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from "@mui/material";
import { useTranslation } from "react-i18next";
import type { ImportState } from "./useImport";

/** Progress of a spreadsheet import and, at its end, its result with every refused row (line and reason). */
export function ImportDialog({ state, onClose }: { state: ImportState; onClose: () => void }) {
  const { t } = useTranslation();
  const open = state.phase !== "idle";
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="contact-list-import-title">
      <DialogTitle id="contact-list-import-title">{t("contactListItems.import.title")}</DialogTitle>
      <DialogContent>
        {state.phase === "uploading" && (
          <Box>
            <Typography gutterBottom>{t("contactListItems.import.uploading", { name: state.fileName })}</Typography>
            <LinearProgress aria-label={t("contactListItems.import.progressLabel")} />
          </Box>
        )}
        {state.phase === "importing" && <Progress result={state.result} />}
        {state.phase === "failed" && <Alert severity="error">{state.message}</Alert>}
        {state.phase === "done" && <Result result={state.result} />}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>
          {state.phase === "importing" || state.phase === "uploading" ? t("contactListItems.import.background") : t("contactListItems.import.close")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function Progress({ result }: { result: ContactListImportDTO }) {
  const { t } = useTranslation();
  const total = result.totalRows;
  const value = total ? Math.min(100, Math.round((result.processedRows / total) * 100)) : undefined;
  return (
    <Box>
      <Typography gutterBottom>
        {total === null ? t("contactListItems.import.reading") : t("contactListItems.import.progress", { processed: result.processedRows, total })}
      </Typography>
      <LinearProgress
        variant={value === undefined ? "indeterminate" : "determinate"}
        value={value}
        aria-label={t("contactListItems.import.progressLabel")}
        aria-valuenow={value}
      />
    </Box>
  );
}

function Result({ result }: { result: ContactListImportDTO }) {
  const { t } = useTranslation();
  return (
    <Box>
      <Alert severity={result.invalid > 0 ? "warning" : "success"} sx={{ mb: 2 }}>
        <div>{t("contactListItems.import.inserted", { count: result.inserted })}</div>
        {result.duplicates > 0 && <div>{t("contactListItems.import.duplicates", { count: result.duplicates })}</div>}
        {result.invalid > 0 && <div>{t("contactListItems.import.invalid", { count: result.invalid })}</div>}
      </Alert>
      {result.errors.length > 0 && (
        <>
          {result.errors.length < result.invalid && (
            <Typography variant="body2" color="text.secondary" gutterBottom>
              {t("contactListItems.import.firstErrors", { count: result.errors.length })}
            </Typography>
          )}
          <Table size="small" aria-label={t("contactListItems.import.errorsTable")}>
            <TableHead>
              <TableRow>
                <TableCell>{t("contactListItems.import.line")}</TableCell>
                <TableCell>{t("contactListItems.import.reason")}</TableCell>
                <TableCell>{t("contactListItems.import.value")}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {result.errors.map((error) => (
                <TableRow key={error.line} data-testid="import-error-row">
                  <TableCell>{error.line}</TableCell>
                  <TableCell>{t(`contactListItems.import.reasons.${error.reason}`)}</TableCell>
                  <TableCell sx={{ wordBreak: "break-all" }}>{error.value}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </>
      )}
    </Box>
  );
}
