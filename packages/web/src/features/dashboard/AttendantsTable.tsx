import { RATING_MAX, type DashboardAttendantDTO } from "@balcao/shared";
import { Box, Chip, Paper, Rating, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { formatDecimal, formatMinutes } from "./format";

/** Spec §2 attendants table: name, rating (1 to 3 stars), average support time, online/offline; plus the tickets behind them. */
export function AttendantsTable({ attendants }: { attendants: DashboardAttendantDTO[] }) {
  const { t, i18n } = useTranslation();
  return (
    <TableContainer component={Paper} variant="outlined">
      <Typography variant="h6" component="h2" sx={{ px: 2, pt: 2 }}>
        {t("dashboard.attendants.title")}
      </Typography>
      <Table size="small" aria-label={t("dashboard.attendants.title")}>
        <TableHead>
          <TableRow>
            <TableCell>{t("dashboard.attendants.name")}</TableCell>
            <TableCell align="center">{t("dashboard.attendants.rating")}</TableCell>
            <TableCell align="center">{t("dashboard.attendants.avgSupportTime")}</TableCell>
            <TableCell align="center">{t("dashboard.attendants.tickets")}</TableCell>
            <TableCell align="center">{t("dashboard.attendants.status")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {attendants.length === 0 && (
            <TableRow>
              <TableCell colSpan={5} align="center">
                {t("dashboard.attendants.empty")}
              </TableCell>
            </TableRow>
          )}
          {attendants.map((a) => (
            <TableRow key={a.id} hover>
              <TableCell>{a.name}</TableCell>
              <TableCell align="center">
                {a.rating === null ? (
                  <Typography variant="body2" color="text.secondary">
                    {t("dashboard.attendants.noRating")}
                  </Typography>
                ) : (
                  <Box sx={{ display: "inline-flex", alignItems: "center", gap: 1 }}>
                    <Rating value={a.rating} max={RATING_MAX} precision={0.1} readOnly size="small" aria-hidden />
                    <Typography variant="body2">
                      {t("dashboard.attendants.ratingValue", { value: formatDecimal(i18n.language, a.rating), count: a.ratings })}
                    </Typography>
                  </Box>
                )}
              </TableCell>
              <TableCell align="center">{formatMinutes(t, i18n.language, a.avgSupportTime)}</TableCell>
              <TableCell align="center">{a.tickets}</TableCell>
              <TableCell align="center">
                <Chip
                  size="small"
                  label={a.online ? t("dashboard.attendants.online") : t("dashboard.attendants.offline")}
                  color={a.online ? "success" : "default"}
                  variant={a.online ? "filled" : "outlined"}
                />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
