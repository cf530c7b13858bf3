import { DASHBOARD_PERIODS } from "@balcao/shared";
import { Box, Button, FormControl, InputLabel, MenuItem, Select, TextField } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { DashboardFilter } from "./api";

/**
 * Spec §2/§9: a period (3, 7, 15, 30, 60, 90 days) or a date range. Choosing a period clears the dates and
 * typing a date clears the period, so the request always says one thing.
 */
export function DashboardFilterBar({ value, onChange }: { value: DashboardFilter; onChange: (f: DashboardFilter) => void }) {
  const { t } = useTranslation();
  const reversed = value.days === null && value.dateFrom !== "" && value.dateTo !== "" && value.dateFrom > value.dateTo;
  return (
    <Box
      component="form"
      role="search"
      aria-label={t("dashboard.filter.label")}
      onSubmit={(e) => e.preventDefault()}
      sx={{ display: "flex", flexWrap: "wrap", gap: 2, alignItems: "flex-start" }}
    >
      <FormControl size="small" sx={{ minWidth: 200 }}>
        <InputLabel id="dashboard-period-label">{t("dashboard.filter.period")}</InputLabel>
        <Select
          labelId="dashboard-period-label"
          label={t("dashboard.filter.period")}
          value={value.days === null ? "" : String(value.days)}
          onChange={(e) => {
            const days = e.target.value === "" ? null : Number(e.target.value);
            onChange(days === null ? { ...value, days: null } : { days, dateFrom: "", dateTo: "" });
          }}
        >
          <MenuItem value="">
            <em>{t("dashboard.filter.none")}</em>
          </MenuItem>
          {DASHBOARD_PERIODS.map((days) => (
            <MenuItem key={days} value={String(days)}>
              {t("dashboard.filter.days", { count: days })}
            </MenuItem>
          ))}
        </Select>
      </FormControl>
      <TextField
        size="small"
        type="date"
        label={t("dashboard.filter.dateFrom")}
        value={value.dateFrom}
        onChange={(e) => onChange({ days: null, dateFrom: e.target.value, dateTo: value.dateTo })}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: value.dateTo || undefined } }}
      />
      <TextField
        size="small"
        type="date"
        label={t("dashboard.filter.dateTo")}
        value={value.dateTo}
        onChange={(e) => onChange({ days: null, dateFrom: value.dateFrom, dateTo: e.target.value })}
        error={reversed}
        helperText={reversed ? t("dashboard.filter.invalidRange") : undefined}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: value.dateFrom || undefined } }}
      />
      <Button color="inherit" onClick={() => onChange({ days: null, dateFrom: "", dateTo: "" })}>
        {t("dashboard.filter.clear")}
      </Button>
    </Box>
  );
}
