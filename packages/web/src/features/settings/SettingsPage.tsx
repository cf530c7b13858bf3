import { isAdmin, isSuper } from "@balcao/shared";
import { Box, Paper, Tab, Tabs } from "@mui/material";
import LockOutlined from "@mui/icons-material/LockOutlined";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../../components/EmptyState";
import { PageHeader } from "../../components/PageHeader";
import { useSession } from "../auth/SessionProvider";
import { CompaniesTab } from "../companies/CompaniesTab";
import { HelpsTab } from "../helps/HelpsTab";
import { PlansTab } from "../plans/PlansTab";
import { SmtpSettingsForm } from "../notifications/SmtpSettingsForm";
import { useSetting } from "./api";
import { CompanySchedules } from "./CompanySchedules";
import { SettingsOptions } from "./SettingsOptions";

type TabKey = "options" | "schedules" | "email" | "companies" | "plans" | "helps";

/**
 * Settings /settings (spec §2, admin): tab Options; tab Horários only when the loaded scheduleType is
 * 'company'; tabs Empresas, Planos and Ajuda for super users.
 */
export default function SettingsPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const admin = isAdmin(user);
  const scheduleType = useSetting("scheduleType", admin);
  const [tab, setTab] = useState<TabKey>("options");

  if (!user || !admin) {
    return (
      <Box>
        <PageHeader title={t("pages.settings")} />
        <EmptyState icon={<LockOutlined sx={{ fontSize: 48 }} />} title={t("settings.adminOnly")} />
      </Box>
    );
  }

  const tabs: TabKey[] = ["options"];
  if (scheduleType === "company") tabs.push("schedules");
  tabs.push("email");
  if (isSuper(user)) tabs.push("companies", "plans", "helps");
  const active = tabs.includes(tab) ? tab : "options";

  return (
    <Box sx={{ display: "flex", flexDirection: "column", height: "100%" }}>
      <PageHeader title={t("pages.settings")} />
      <Paper variant="outlined" sx={{ flexGrow: 1, display: "flex", flexDirection: "column", overflow: "auto" }}>
        <Tabs
          value={active}
          onChange={(_e, value: TabKey) => setTab(value)}
          variant="scrollable"
          scrollButtons="auto"
          aria-label={t("pages.settings")}
          sx={{ borderBottom: 1, borderColor: "divider" }}
        >
          {tabs.map((key) => (
            <Tab
              key={key}
              value={key}
              label={key === "email" ? t("notifications.smtp.tab") : t(`settings.tabs.${key}`)}
              id={`settings-tab-${key}`}
              aria-controls={`settings-tabpanel-${key}`}
            />
          ))}
        </Tabs>
        <Box role="tabpanel" id={`settings-tabpanel-${active}`} aria-labelledby={`settings-tab-${active}`} sx={{ p: 2 }}>
          {active === "options" && <SettingsOptions />}
          {active === "schedules" && <CompanySchedules companyId={user.companyId} />}
          {active === "email" && <SmtpSettingsForm />}
          {active === "companies" && <CompaniesTab />}
          {active === "plans" && <PlansTab />}
          {active === "helps" && <HelpsTab />}
        </Box>
      </Paper>
    </Box>
  );
}
