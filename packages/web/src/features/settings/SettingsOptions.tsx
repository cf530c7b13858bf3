import { DEFAULT_COMPANY_SETTINGS, isSuper, SETTING_VALUES } from "@balcao/shared";
import { Box, CircularProgress, InputAdornment, MenuItem, TextField } from "@mui/material";
import { enqueueSnackbar } from "../../components/toasts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../../components/EmptyState";
import { LoadingState } from "../../components/LoadingState";
import { toastError } from "../../components/toastError";
import { useSession } from "../auth/SessionProvider";
import { useSettings, useUpdateSetting } from "./api";

/** The options of spec §9 in the order the product shows them. `allTicket` belongs to each user (user modal). */
export const OPTION_KEYS = [
  "userRating",
  "scheduleType",
  "call",
  "CheckMsgIsGroup",
  "sendGreetingAccepted",
  "sendMsgTransfTicket",
  "chatBotType",
  "connectionAlertMinutes",
  "sendWhileDisconnected",
  "userCreation",
] as const;
export type OptionKey = (typeof OPTION_KEYS)[number];

/** Options tab: one select per setting, each change saved at once with PUT /settings/:key. */
export function SettingsOptions() {
  const { t } = useTranslation();
  const { user } = useSession();
  // userCreation opens or closes public sign-up, read from the platform company: a super user's setting.
  const keys = OPTION_KEYS.filter((key) => key !== "userCreation" || isSuper(user));
  const settings = useSettings();
  const update = useUpdateSetting();
  const [saving, setSaving] = useState<{ key: string; value: string } | null>(null);

  if (settings.isPending) return <LoadingState />;
  if (settings.isError) return <EmptyState title={t("settings.loadFailed")} />;

  const valueOf = (key: OptionKey): string => {
    if (saving?.key === key) return saving.value;
    return settings.data.find((s) => s.key === key)?.value ?? DEFAULT_COMPANY_SETTINGS[key] ?? "";
  };

  const change = async (key: OptionKey, value: string) => {
    if (value === valueOf(key)) return;
    setSaving({ key, value });
    try {
      await update.mutateAsync({ key, value });
      enqueueSnackbar(t("settings.toasts.updated"), { variant: "success" });
    } catch (err) {
      toastError(err);
    } finally {
      setSaving(null);
    }
  };

  return (
    <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", md: "1fr 1fr" }, gap: 2.5, py: 1 }}>
      {keys.map((key) => {
        const busy = saving?.key === key;
        return (
          <TextField
            key={key}
            select
            id={`setting-${key}`}
            label={t(`settings.options.${key}.label`)}
            helperText={t(`settings.options.${key}.help`)}
            value={valueOf(key)}
            onChange={(e) => void change(key, e.target.value)}
            disabled={!!saving}
            fullWidth
            slotProps={{
              input: busy
                ? {
                    endAdornment: (
                      <InputAdornment position="end" sx={{ mr: 3 }}>
                        <CircularProgress size={18} aria-label={t("common.loading")} />
                      </InputAdornment>
                    ),
                  }
                : undefined,
            }}
          >
            {(SETTING_VALUES[key] ?? []).map((value) => (
              <MenuItem key={value} value={value}>
                {t(`settings.options.${key}.values.${value}`)}
              </MenuItem>
            ))}
          </TextField>
        );
      })}
    </Box>
  );
}
