import { AppBar, Box, Button, Tab, Tabs, Toolbar, Typography } from "@mui/material";
import Logout from "@mui/icons-material/Logout";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, Outlet, useLocation } from "react-router";
import { useSession } from "../auth/SessionProvider";
import { formatDate } from "../../app/format";

/**
 * The shell of a billing-only session (an expired company's admin): finance and subscription pages and
 * logout, nothing that would call the locked APIs (tickets bell, announcements, chats…).
 */
export function BillingOnlyLayout() {
  const { t } = useTranslation();
  const { user, logout } = useSession();
  const location = useLocation();
  const tab = location.pathname === "/subscription" ? "/subscription" : "/financeiro";
  return (
    <Box sx={{ display: "flex", flexDirection: "column", height: "100vh" }}>
      <AppBar position="static">
        <Toolbar sx={{ gap: 2 }}>
          <Box sx={{ flexGrow: 1, minWidth: 0 }}>
            <Typography variant="subtitle1" component="p" noWrap>
              {t("topBar.greeting", { name: user?.name ?? "", company: user?.company?.name ?? "" })}
            </Typography>
            {user?.company?.dueDate && (
              <Typography variant="caption" component="p" noWrap>
                {t("billing.expired.title")} — {formatDate(user.company.dueDate)}
              </Typography>
            )}
          </Box>
          <Button color="inherit" startIcon={<Logout />} onClick={() => void logout()}>
            {t("topBar.logout")}
          </Button>
        </Toolbar>
      </AppBar>
      <Tabs value={tab} sx={{ px: 2, borderBottom: 1, borderColor: "divider" }}>
        <Tab value="/financeiro" label={t("billing.invoices.title")} component={RouterLink} to="/financeiro" />
        <Tab value="/subscription" label={t("billing.subscription.title")} component={RouterLink} to="/subscription" />
      </Tabs>
      <Box component="main" sx={{ flex: 1, minHeight: 0, overflow: "auto", p: { xs: 1.5, sm: 3 }, display: "flex", flexDirection: "column" }}>
        <Outlet />
      </Box>
    </Box>
  );
}
