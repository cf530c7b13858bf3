import { Box, Collapse, Divider, List, ListItem, ListItemButton, ListItemIcon, ListItemText, ListSubheader, Tooltip } from "@mui/material";
import AccountTreeOutlined from "@mui/icons-material/AccountTreeOutlined";
import AnnouncementOutlined from "@mui/icons-material/AnnouncementOutlined";
import CampaignOutlined from "@mui/icons-material/CampaignOutlined";
import CodeOutlined from "@mui/icons-material/CodeOutlined";
import ContactPhoneOutlined from "@mui/icons-material/ContactPhoneOutlined";
import DashboardOutlined from "@mui/icons-material/DashboardOutlined";
import EventAvailableOutlined from "@mui/icons-material/EventAvailableOutlined";
import ExpandLess from "@mui/icons-material/ExpandLess";
import ExpandMore from "@mui/icons-material/ExpandMore";
import ForumOutlined from "@mui/icons-material/ForumOutlined";
import HelpOutline from "@mui/icons-material/HelpOutlineOutlined";
import ListAltOutlined from "@mui/icons-material/ListAltOutlined";
import LocalOfferOutlined from "@mui/icons-material/LocalOfferOutlined";
import Logout from "@mui/icons-material/Logout";
import PaidOutlined from "@mui/icons-material/PaidOutlined";
import PeopleAltOutlined from "@mui/icons-material/PeopleAltOutlined";
import PlaylistAddCheck from "@mui/icons-material/PlaylistAddCheck";
import SettingsOutlined from "@mui/icons-material/SettingsOutlined";
import ViewKanbanOutlined from "@mui/icons-material/ViewKanbanOutlined";
import WhatsApp from "@mui/icons-material/WhatsApp";
import FlashOnOutlined from "@mui/icons-material/FlashOnOutlined";
import { useState, type ReactElement } from "react";
import { useTranslation } from "react-i18next";
import { matchPath, NavLink, useLocation } from "react-router";
import { useSession } from "../../features/auth/SessionProvider";
import { ConnectionsMenuIcon } from "../../features/connections/ConnectionsMenuIcon";
import { canOpenPathname } from "../pageAccess";
import { MENU, type MenuEntry } from "./menu";
import { useCampaignsVisible } from "./useCampaignsVisible";

const ICONS: Record<string, ReactElement> = {
  tickets: <WhatsApp />,
  quickMessages: <FlashOnOutlined />,
  kanban: <ViewKanbanOutlined />,
  todoList: <PlaylistAddCheck />,
  contacts: <ContactPhoneOutlined />,
  schedules: <EventAvailableOutlined />,
  tags: <LocalOfferOutlined />,
  chats: <ForumOutlined />,
  helps: <HelpOutline />,
  dashboard: <DashboardOutlined />,
  campaigns: <CampaignOutlined />,
  list: <ListAltOutlined />,
  contactLists: <PeopleAltOutlined />,
  announcements: <AnnouncementOutlined />,
  api: <CodeOutlined />,
  users: <PeopleAltOutlined />,
  queues: <AccountTreeOutlined />,
  // With the exclamation badge of spec §2 (any connection needing attention, checked 2 s after a change).
  connections: <ConnectionsMenuIcon />,
  financeiro: <PaidOutlined />,
  settings: <SettingsOutlined />,
};

interface MainMenuProps {
  collapsed: boolean;
  onNavigate?: () => void;
}

/** Side menu (spec §2): groups by permission, the campaigns entries when enabled, and Sair. */
export function MainMenu({ collapsed, onNavigate }: MainMenuProps) {
  const { t } = useTranslation();
  const { user, logout } = useSession();
  const campaigns = useCampaignsVisible();

  const visible = (entry: MenuEntry) => canOpenPathname(user, entry.to) && (!entry.campaigns || campaigns.visible);

  // The groups scroll inside the drawer while Sair stays pinned at its bottom, so it is never cut off (1366×800,
  // issue 16). Each group is a list of its own (<ul> of <li>), named by its title for screen readers.
  return (
    <Box component="nav" aria-label={t("mainDrawer.navigation")} sx={{ flex: 1, minHeight: 0, display: "flex", flexDirection: "column" }}>
      <Box sx={{ flex: 1, minHeight: 0, overflowY: "auto", overflowX: "hidden" }}>
        {MENU.filter((group) => group.items.some(visible)).map((group) => (
          <List
            key={group.title}
            dense
            disablePadding
            aria-label={t(`mainDrawer.groups.${group.title}`)}
            subheader={
              collapsed ? undefined : (
                <ListSubheader sx={{ lineHeight: "28px", bgcolor: "transparent" }}>{t(`mainDrawer.groups.${group.title}`)}</ListSubheader>
              )
            }
          >
            {group.items
              .filter(visible)
              .map((entry) =>
                entry.children ? (
                  <MenuBranch key={entry.label} entry={entry} collapsed={collapsed} onNavigate={onNavigate} />
                ) : (
                  <MenuLink key={entry.label} entry={entry} collapsed={collapsed} onNavigate={onNavigate} />
                ),
              )}
          </List>
        ))}
      </Box>
      <Divider />
      <List dense disablePadding>
        <MenuRow label={t("mainDrawer.listItems.logout")} icon={<Logout />} collapsed={collapsed} onClick={() => void logout()} />
      </List>
    </Box>
  );
}

/** One compact row (32 px) so the admin's whole menu fits a 800 px high window. */
const ROW_SX = { py: 0.5, minHeight: 32 } as const;

function MenuRow({
  label,
  icon,
  collapsed,
  selected,
  onClick,
  to,
  nested,
}: {
  label: string;
  icon: ReactElement;
  collapsed: boolean;
  selected?: boolean;
  onClick?: () => void;
  to?: string;
  nested?: boolean;
}) {
  const button = to ? (
    <ListItemButton component={NavLink} to={to} end selected={selected} onClick={onClick} sx={{ ...ROW_SX, pl: nested && !collapsed ? 4 : 2 }}>
      <ListItemIcon>{icon}</ListItemIcon>
      <ListItemText primary={label} sx={{ my: 0, opacity: collapsed ? 0 : 1 }} />
    </ListItemButton>
  ) : (
    <ListItemButton onClick={onClick} selected={selected} sx={ROW_SX}>
      <ListItemIcon>{icon}</ListItemIcon>
      <ListItemText primary={label} sx={{ my: 0, opacity: collapsed ? 0 : 1 }} />
    </ListItemButton>
  );
  return (
    <ListItem disablePadding sx={{ display: "block" }}>
      {collapsed ? (
        <Tooltip title={label} placement="right">
          <span>{button}</span>
        </Tooltip>
      ) : (
        button
      )}
    </ListItem>
  );
}

function MenuLink({ entry, collapsed, onNavigate, nested }: { entry: MenuEntry; collapsed: boolean; onNavigate?: () => void; nested?: boolean }) {
  const { t } = useTranslation();
  const location = useLocation();
  const selected = entry.to === "/" ? location.pathname === "/" : !!matchPath({ path: entry.to, end: false }, location.pathname);
  return (
    <MenuRow
      label={t(`mainDrawer.listItems.${entry.label}`)}
      icon={ICONS[entry.icon]}
      to={entry.to}
      selected={selected}
      collapsed={collapsed}
      onClick={onNavigate}
      nested={nested}
    />
  );
}

function MenuBranch({ entry, collapsed, onNavigate }: { entry: MenuEntry; collapsed: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const label = t(`mainDrawer.listItems.${entry.label}`);
  return (
    <ListItem disablePadding sx={{ display: "block" }}>
      <ListItemButton onClick={() => setOpen((o) => !o)} aria-expanded={open} sx={ROW_SX}>
        <ListItemIcon>{ICONS[entry.icon]}</ListItemIcon>
        <ListItemText primary={label} sx={{ my: 0, opacity: collapsed ? 0 : 1 }} />
        {!collapsed && (open ? <ExpandLess /> : <ExpandMore />)}
      </ListItemButton>
      <Collapse in={open} timeout="auto" unmountOnExit>
        <List disablePadding dense aria-label={label}>
          {entry.children?.map((child) => (
            <MenuLink key={child.label} entry={child} collapsed={collapsed} onNavigate={onNavigate} nested />
          ))}
        </List>
      </Collapse>
    </ListItem>
  );
}
