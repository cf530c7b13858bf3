export interface MenuEntry {
  /** i18n key under mainDrawer.listItems */
  label: string;
  to: string;
  icon: string;
  children?: MenuEntry[];
  /** Shown only when campaigns are enabled (spec §2). */
  campaigns?: boolean;
}

export interface MenuGroup {
  /** i18n key under mainDrawer.groups */
  title: string;
  items: MenuEntry[];
}

/**
 * Side menu groups of spec §2: Atendimento (everyone), Gerência and Administração (admin). Who sees an entry is
 * its page's PAGE_ACCESS level (@balcao/shared), the same table the router's guards use; a group without a
 * visible entry is hidden.
 */
export const MENU: MenuGroup[] = [
  {
    title: "service",
    items: [
      { label: "tickets", to: "/tickets", icon: "tickets" },
      { label: "quickMessages", to: "/quick-messages", icon: "quickMessages" },
      { label: "kanban", to: "/kanban", icon: "kanban" },
      { label: "todoList", to: "/todolist", icon: "todoList" },
      { label: "contacts", to: "/contacts", icon: "contacts" },
      { label: "schedules", to: "/schedules", icon: "schedules" },
      { label: "tags", to: "/tags", icon: "tags" },
      { label: "chats", to: "/chats", icon: "chats" },
      { label: "helps", to: "/helps", icon: "helps" },
    ],
  },
  {
    title: "management",
    items: [{ label: "dashboard", to: "/", icon: "dashboard" }],
  },
  {
    title: "administration",
    items: [
      {
        label: "campaigns",
        to: "/campaigns",
        icon: "campaigns",
        campaigns: true,
        children: [
          { label: "campaignsList", to: "/campaigns", icon: "list" },
          { label: "contactLists", to: "/contact-lists", icon: "contactLists" },
          { label: "campaignsConfig", to: "/campaigns-config", icon: "settings" },
        ],
      },
      { label: "announcements", to: "/announcements", icon: "announcements" },
      { label: "messagesApi", to: "/messages-api", icon: "api" },
      { label: "users", to: "/users", icon: "users" },
      { label: "queues", to: "/queues", icon: "queues" },
      { label: "connections", to: "/connections", icon: "connections" },
      { label: "financeiro", to: "/financeiro", icon: "financeiro" },
      { label: "settings", to: "/settings", icon: "settings" },
    ],
  },
];
