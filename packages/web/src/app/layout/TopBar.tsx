import { isAdmin } from "@balcao/shared";
import { AppBar, Box, IconButton, Toolbar, Tooltip, Typography } from "@mui/material";
import Brightness4 from "@mui/icons-material/Brightness4";
import Brightness7 from "@mui/icons-material/Brightness7";
import Cached from "@mui/icons-material/Cached";
import ChevronLeft from "@mui/icons-material/ChevronLeft";
import MenuIcon from "@mui/icons-material/Menu";
import { useTranslation } from "react-i18next";
import { useSession } from "../../features/auth/SessionProvider";
import { AnnouncementsPopover } from "../../features/announcements/AnnouncementsPopover";
import { ChatsPopover } from "../../features/chats/ChatsPopover";
import { ConnectionAlertsBell } from "../../features/notifications/ConnectionAlertsBell";
import { TicketsBell } from "../../features/tickets/TicketsBell";
import { useColorMode } from "../theme";
import { ProfileMenu } from "./ProfileMenu";
import { VolumeControl } from "./VolumeControl";
import { formatDate } from "../format";

interface TopBarProps {
  drawerOpen: boolean;
  onToggleDrawer: () => void;
}

/** Top bar of spec §2: greeting, due date for admins, theme, volume, reload, bell, announcements, internal chat, profile. */
export function TopBar({ drawerOpen, onToggleDrawer }: TopBarProps) {
  const { t } = useTranslation();
  const { user } = useSession();
  const { mode, toggle } = useColorMode();
  const dueDate = user?.company?.dueDate;

  return (
    <AppBar position="fixed" sx={{ zIndex: (theme) => theme.zIndex.drawer + 1 }}>
      <Toolbar sx={{ gap: 1 }}>
        <IconButton color="inherit" edge="start" aria-label={drawerOpen ? t("topBar.closeMenu") : t("topBar.openMenu")} onClick={onToggleDrawer}>
          {drawerOpen ? <ChevronLeft /> : <MenuIcon />}
        </IconButton>
        <Box sx={{ flexGrow: 1, minWidth: 0 }}>
          <Typography variant="subtitle1" component="p" noWrap>
            {t("topBar.greeting", { name: user?.name ?? "", company: user?.company?.name ?? "" })}
          </Typography>
          {isAdmin(user) && dueDate && (
            <Typography variant="caption" component="p" noWrap>
              {t("topBar.activeUntil", { date: formatDate(dueDate) })}
            </Typography>
          )}
        </Box>
        <Tooltip title={t("topBar.toggleTheme")}>
          <IconButton color="inherit" aria-label={t("topBar.toggleTheme")} onClick={toggle}>
            {mode === "dark" ? <Brightness7 /> : <Brightness4 />}
          </IconButton>
        </Tooltip>
        <VolumeControl />
        <Tooltip title={t("topBar.reload")}>
          <IconButton color="inherit" aria-label={t("topBar.reload")} onClick={() => window.location.reload()}>
            <Cached />
          </IconButton>
        </Tooltip>
        <TicketsBell />
        <ConnectionAlertsBell />
        <AnnouncementsPopover />
        <ChatsPopover />
        <ProfileMenu />
      </Toolbar>
    </AppBar>
  );
}
