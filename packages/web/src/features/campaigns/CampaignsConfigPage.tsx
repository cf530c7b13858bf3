import {
  CAMPAIGN_BUILTIN_VARIABLES,
  CAMPAIGN_GREATER_INTERVAL_OPTIONS,
  CAMPAIGN_LONGER_INTERVAL_AFTER_OPTIONS,
  CAMPAIGN_MESSAGE_INTERVAL_OPTIONS,
  campaignVariable,
  type CampaignSettings,
  type CampaignVariable,
} from "@balcao/shared";
import {
  Box,
  Button,
  CircularProgress,
  IconButton,
  MenuItem,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from "@mui/material";
import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import { enqueueSnackbar } from "../../components/toasts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../../components/EmptyState";
import { LoadingState } from "../../components/LoadingState";
import { PageHeader } from "../../components/PageHeader";
import { toastError } from "../../components/toastError";
import { useCampaignSettings, useSaveCampaignSettings } from "./api";

type VariableProblem = "duplicate" | "key" | "value";

/**
 * Adds a variable unless its key already exists (spec §5; ignoring case, and the built-in {nome}, {numero},
 * {email} count as existing); returns the reason when refused.
 */
export function addVariable(
  variables: CampaignVariable[],
  input: { key: string; value: string },
): { variables: CampaignVariable[]; problem?: VariableProblem } {
  const parsed = campaignVariable.safeParse({ key: input.key, value: input.value.trim() });
  if (!parsed.success) return { variables, problem: "key" };
  const { key, value } = parsed.data;
  if (!value) return { variables, problem: "value" };
  const lower = key.toLowerCase();
  if ((CAMPAIGN_BUILTIN_VARIABLES as readonly string[]).includes(lower) || variables.some((v) => v.key.toLowerCase() === lower))
    return { variables, problem: "duplicate" };
  return { variables: [...variables, { key, value }] };
}

/** Campaign settings /campaigns-config: the dispatch intervals and the custom message variables. */
export default function CampaignsConfigPage() {
  const { t } = useTranslation();
  const settings = useCampaignSettings();
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
      <PageHeader title={t("campaigns.config.title")} />
      {settings.isPending ? (
        <LoadingState />
      ) : settings.isError ? (
        <EmptyState title={t("campaigns.config.loadFailed")} />
      ) : (
        <SettingsForm initial={settings.data} />
      )}
    </Box>
  );
}

function SettingsForm({ initial }: { initial: CampaignSettings }) {
  const { t } = useTranslation();
  const save = useSaveCampaignSettings();
  const [values, setValues] = useState<CampaignSettings>(initial);
  const [key, setKey] = useState("");
  const [value, setValue] = useState("");
  const [problem, setProblem] = useState<VariableProblem | null>(null);

  const intervalSelect = (
    field: "messageInterval" | "longerIntervalAfter" | "greaterInterval",
    options: readonly number[],
    unit: "seconds" | "messages",
  ) => (
    <TextField
      select
      label={t(`campaigns.config.${field}`)}
      value={String(values[field])}
      onChange={(e) => setValues((v) => ({ ...v, [field]: Number(e.target.value) }))}
      fullWidth
      slotProps={{ htmlInput: { "data-testid": `config-${field}` } }}
    >
      {/* A value saved before the options existed still shows. */}
      {(options.includes(values[field]) ? options : [...options, values[field]]).map((n) => (
        <MenuItem key={n} value={String(n)}>
          {n === 0 ? t("campaigns.config.none") : t(`campaigns.config.${unit}`, { count: n })}
        </MenuItem>
      ))}
    </TextField>
  );

  const add = () => {
    const result = addVariable(values.variables, { key, value });
    if (result.problem) {
      setProblem(result.problem);
      return;
    }
    setProblem(null);
    setValues((v) => ({ ...v, variables: result.variables }));
    setKey("");
    setValue("");
    // Spec §8: the table changes here; saving is a separate step.
    enqueueSnackbar(t("campaigns.config.clickSave"), { variant: "info" });
  };

  const submit = async () => {
    try {
      await save.mutateAsync(values);
      enqueueSnackbar(t("campaigns.config.saved"), { variant: "success" });
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <>
      <Paper variant="outlined" sx={{ p: 2, display: "flex", flexDirection: "column", gap: 2 }}>
        <Typography variant="h6" component="h2">
          {t("campaigns.config.intervals")}
        </Typography>
        <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", md: "1fr 1fr 1fr" } }}>
          {intervalSelect("messageInterval", CAMPAIGN_MESSAGE_INTERVAL_OPTIONS, "seconds")}
          {intervalSelect("longerIntervalAfter", CAMPAIGN_LONGER_INTERVAL_AFTER_OPTIONS, "messages")}
          {intervalSelect("greaterInterval", CAMPAIGN_GREATER_INTERVAL_OPTIONS, "seconds")}
        </Box>
        <Typography variant="body2" color="text.secondary">
          {t("campaigns.config.intervalsHelp")}
        </Typography>
      </Paper>

      <Paper variant="outlined" sx={{ p: 2, display: "flex", flexDirection: "column", gap: 2 }}>
        <Typography variant="h6" component="h2">
          {t("campaigns.config.variables")}
        </Typography>
        <Box
          component="form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            add();
          }}
          sx={{ display: "flex", gap: 2, alignItems: "flex-start", flexWrap: "wrap" }}
        >
          <TextField
            label={t("campaigns.config.variableKey")}
            value={key}
            onChange={(e) => {
              setKey(e.target.value);
              setProblem(null);
            }}
            error={problem === "key" || problem === "duplicate"}
            helperText={
              problem === "key" || problem === "duplicate" ? t(`campaigns.config.problems.${problem}`) : t("campaigns.config.variableKeyHint")
            }
            size="small"
          />
          <TextField
            label={t("campaigns.config.variableValue")}
            value={value}
            onChange={(e) => {
              setValue(e.target.value);
              setProblem(null);
            }}
            error={problem === "value"}
            helperText={problem === "value" ? t("campaigns.config.problems.value") : undefined}
            size="small"
            sx={{ flexGrow: 1 }}
          />
          <Button type="submit" variant="outlined">
            {t("campaigns.config.addVariable")}
          </Button>
        </Box>
        <Table size="small" aria-label={t("campaigns.config.variables")}>
          <TableHead>
            <TableRow>
              <TableCell>{t("campaigns.config.variableKey")}</TableCell>
              <TableCell>{t("campaigns.config.variableValue")}</TableCell>
              <TableCell align="center">{t("campaigns.table.actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {values.variables.map((v) => (
              <TableRow key={v.key} data-testid="variable-row">
                <TableCell>{`{${v.key}}`}</TableCell>
                <TableCell>{v.value}</TableCell>
                <TableCell align="center">
                  <Tooltip title={t("common.delete")}>
                    <IconButton
                      size="small"
                      aria-label={t("campaigns.config.removeVariable", { key: v.key })}
                      onClick={() => {
                        setValues((s) => ({ ...s, variables: s.variables.filter((x) => x.key !== v.key) }));
                        enqueueSnackbar(t("campaigns.config.clickSave"), { variant: "info" });
                      }}
                    >
                      <DeleteOutline fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
            {values.variables.length === 0 && (
              <TableRow>
                <TableCell colSpan={3} sx={{ color: "text.secondary" }}>
                  {t("campaigns.config.noVariables")}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </Paper>

      <Box sx={{ display: "flex", justifyContent: "flex-end" }}>
        <Button
          variant="contained"
          onClick={() => void submit()}
          disabled={save.isPending}
          startIcon={save.isPending ? <CircularProgress size={18} color="inherit" /> : undefined}
        >
          {t("campaigns.config.save")}
        </Button>
      </Box>
    </>
  );
}
