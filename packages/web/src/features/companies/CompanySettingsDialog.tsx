import { DEFAULT_COMPANY_SETTINGS, SETTING_VALUES, type CompanyDTO } from "@balcao/shared";
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, TextField } from "@mui/material";
import { enqueueSnackbar } from "../../components/toasts";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../../components/EmptyState";
import { LoadingState } from "../../components/LoadingState";
import { toastError } from "../../components/toastError";
import { OPTION_KEYS } from "../settings/SettingsOptions";
import { useCompanySettings, useSaveCompanySetting } from "./api";

const KEYS = [...OPTION_KEYS, "campaignsEnabled"] as const;
type Key = (typeof KEYS)[number];

interface CompanySettingsDialogProps {
  company: CompanyDTO | null;
  onClose: () => void;
}

/** The super user sees and changes any company's options (the same keys and values as its Options tab). */
export function CompanySettingsDialog({ company, onClose }: CompanySettingsDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Dialog open={!!company} onClose={onClose} maxWidth="md" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{company ? t("companies.settings.title", { name: company.name }) : ""}</DialogTitle>
      <DialogContent dividers>{company && <CompanySettingsForm companyId={company.id} />}</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("companies.settings.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}

function CompanySettingsForm({ companyId }: { companyId: number }) {
  const { t } = useTranslation();
  const settings = useCompanySettings(companyId);
  const save = useSaveCompanySetting(companyId);
  const [saving, setSaving] = useState<string | null>(null);

  if (settings.isPending) return <LoadingState />;
  if (settings.isError) return <EmptyState title={t("settings.loadFailed")} />;

  const valueOf = (key: Key) => settings.data.find((s) => s.key === key)?.value ?? DEFAULT_COMPANY_SETTINGS[key] ?? "";
  const labelOf = (key: Key) => (key === "campaignsEnabled" ? t("companies.settings.campaignsEnabled") : t(`settings.options.${key}.label`));
  const valueLabel = (key: Key, value: string) =>
    key === "campaignsEnabled"
      ? t(value === "true" ? "companies.campaigns.enabled" : "companies.campaigns.disabled")
      : t(`settings.options.${key}.values.${value}`);

  const change = async (key: Key, value: string) => {
    if (value === valueOf(key)) return;
    setSaving(key);
    try {
      await save.mutateAsync({ key, value });
      enqueueSnackbar(t("settings.toasts.updated"), { variant: "success" });
    } catch (err) {
      toastError(err);
    } finally {
      setSaving(null);
    }
  };

  return (
    <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", md: "1fr 1fr" }, gap: 2.5, py: 1 }}>
      {KEYS.map((key) => (
        <TextField
          key={key}
          select
          id={`company-${companyId}-setting-${key}`}
          label={labelOf(key)}
          value={valueOf(key)}
          onChange={(e) => void change(key, e.target.value)}
          disabled={!!saving}
          fullWidth
        >
          {(SETTING_VALUES[key] ?? []).map((value) => (
            <MenuItem key={value} value={value}>
              {valueLabel(key, value)}
            </MenuItem>
          ))}
        </TextField>
      ))}
    </Box>
  );
}
