import { Collapse, List, ListItemButton, ListItemIcon, ListItemText, ListSubheader, Tooltip } from "@mui/material";
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

  return (
    <List component="nav" aria-label={t("mainDrawer.navigation")} dense>
      {MENU.filter((group) => group.items.some(visible)).map((group) => (
        <li key={group.title}>
          <List disablePadding dense>
            {!collapsed && <ListSubheader sx={{ lineHeight: "32px", bgcolor: "transparent" }}>{t(`mainDrawer.groups.${group.title}`)}</ListSubheader>}
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
        </li>
      ))}
      <li>
        <List disablePadding dense>
          <MenuRow label={t("mainDrawer.listItems.logout")} icon={<Logout />} collapsed={collapsed} onClick={() => void logout()} />
        </List>
      </li>
    </List>
  );
}

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
    <ListItemButton component={NavLink} to={to} end selected={selected} onClick={onClick} sx={{ pl: nested && !collapsed ? 4 : 2 }}>
      <ListItemIcon>{icon}</ListItemIcon>
      <ListItemText primary={label} sx={{ opacity: collapsed ? 0 : 1 }} />
    </ListItemButton>
  ) : (
    <ListItemButton onClick={onClick} selected={selected}>
      <ListItemIcon>{icon}</ListItemIcon>
      <ListItemText primary={label} sx={{ opacity: collapsed ? 0 : 1 }} />
    </ListItemButton>
  );
  return collapsed ? (
    <Tooltip title={label} placement="right">
      <span>{button}</span>
    </Tooltip>
  ) : (
    button
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
    <>
      <ListItemButton onClick={() => setOpen((o) => !o)} aria-expanded={open}>
        <ListItemIcon>{ICONS[entry.icon]}</ListItemIcon>
        <ListItemText primary={label} sx={{ opacity: collapsed ? 0 : 1 }} />
        {!collapsed && (open ? <ExpandLess /> : <ExpandMore />)}
      </ListItemButton>
      <Collapse in={open} timeout="auto" unmountOnExit>
        <List disablePadding dense>
          {entry.children?.map((child) => (
            <MenuLink key={child.label} entry={child} collapsed={collapsed} onNavigate={onNavigate} nested />
          ))}
        </List>
      </Collapse>
    </>
  );
}
