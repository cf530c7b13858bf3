import { isAdmin } from "@balcao/shared";
import {
  Box,
  Button,
  Card,
  CardContent,
  IconButton,
  LinearProgress,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Tooltip,
  Typography,
} from "@mui/material";
import CheckCircle from "@mui/icons-material/CheckCircle";
import Close from "@mui/icons-material/Close";
import RadioButtonUnchecked from "@mui/icons-material/RadioButtonUnchecked";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { toastError } from "../../components/toastError";
import { useSession } from "../auth/SessionProvider";
import { useDismissOnboarding, useOnboarding, type OnboardingStepKey } from "./api";

/** Where each step is done. */
const STEP_LINKS: Record<OnboardingStepKey, string> = {
  connection: "/connections",
  queue: "/queues",
  attendant: "/users",
  reply: "/tickets",
};
/** "Try it without a phone": the add dialog opens with the Simulator channel already chosen. */
export const SIMULATOR_LINK = "/connections?new=1";

/**
 * First-run checklist of a company's admins (issue 16), on the dashboard: four steps ticked by the server
 * from the company's data, each linking to its page; hidden once dismissed (for the whole company) or
 * when every step is done.
 */
export function OnboardingChecklist() {
  const { t } = useTranslation();
  const { user } = useSession();
  const admin = isAdmin(user);
  const query = useOnboarding(admin);
  const dismiss = useDismissOnboarding();
  const state = query.data;
  if (!admin || !state || state.dismissed || state.completed) return null;
  const done = state.steps.filter((s) => s.done).length;

  return (
    <Card variant="outlined" component="section" aria-labelledby="onboarding-title" data-testid="onboarding">
      <CardContent>
        <Box sx={{ display: "flex", alignItems: "flex-start", gap: 1 }}>
          <Box sx={{ flex: 1 }}>
            <Typography id="onboarding-title" variant="h6" component="h2">
              {t("onboarding.title")}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t("onboarding.subtitle")}
            </Typography>
          </Box>
          <Tooltip title={t("onboarding.dismiss")}>
            <IconButton
              aria-label={t("onboarding.dismiss")}
              disabled={dismiss.isPending}
              onClick={() => dismiss.mutate(true, { onError: (err) => toastError(err) })}
            >
              <Close />
            </IconButton>
          </Tooltip>
        </Box>
        <Box sx={{ display: "flex", alignItems: "center", gap: 1, mt: 1 }}>
          <LinearProgress
            variant="determinate"
            value={(done / state.steps.length) * 100}
            sx={{ flex: 1, height: 8, borderRadius: 4 }}
            aria-label={t("onboarding.progress", { done, total: state.steps.length })}
          />
          <Typography variant="caption" color="text.secondary" data-testid="onboarding-progress">
            {t("onboarding.progress", { done, total: state.steps.length })}
          </Typography>
        </Box>
        <List dense aria-label={t("onboarding.title")}>
          {state.steps.map((step) => (
            <ListItem
              key={step.key}
              data-testid={`onboarding-step-${step.key}`}
              data-done={step.done ? "true" : "false"}
              sx={{ flexWrap: "wrap", gap: 1 }}
            >
              <ListItemIcon sx={{ minWidth: 36 }}>
                {step.done ? (
                  <CheckCircle color="success" titleAccess={t("onboarding.done")} />
                ) : (
                  <RadioButtonUnchecked color="disabled" titleAccess={t("onboarding.todo")} />
                )}
              </ListItemIcon>
              <ListItemText
                sx={{ flex: "1 1 240px" }}
                primary={t(`onboarding.steps.${step.key}.title`)}
                secondary={t(`onboarding.steps.${step.key}.description`)}
                slotProps={{ primary: { sx: step.done ? { textDecoration: "line-through", color: "text.secondary" } : undefined } }}
              />
              {!step.done && (
                <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
                  <Button component={RouterLink} to={STEP_LINKS[step.key]} variant="outlined" size="small">
                    {t(`onboarding.steps.${step.key}.action`)}
                  </Button>
                  {step.key === "connection" && (
                    <Button component={RouterLink} to={SIMULATOR_LINK} size="small">
                      {t("onboarding.steps.connection.simulator")}
                    </Button>
                  )}
                </Box>
              )}
            </ListItem>
          ))}
        </List>
      </CardContent>
    </Card>
  );
}
