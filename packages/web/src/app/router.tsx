import type { PagePath } from "@balcao/shared";
import type { ReactElement } from "react";
import { Navigate, type RouteObject } from "react-router";
import AnnouncementsPage from "../features/announcements/AnnouncementsPage";
import LoginPage from "../features/auth/LoginPage";
import SignupPage from "../features/auth/SignupPage";
import CampaignReportPage from "../features/campaigns/CampaignReportPage";
import CampaignsConfigPage from "../features/campaigns/CampaignsConfigPage";
import CampaignsPage from "../features/campaigns/CampaignsPage";
import ChatsPage from "../features/chats/ChatsPage";
import ConnectionsPage from "../features/connections/ConnectionsPage";
import ContactListItemsPage from "../features/contact-lists/ContactListItemsPage";
import ContactListsPage from "../features/contact-lists/ContactListsPage";
import ContactsPage from "../features/contacts/ContactsPage";
import DashboardPage from "../features/dashboard/DashboardPage";
import HelpsPage from "../features/helps/HelpsPage";
import InvoicesPage from "../features/billing/InvoicesPage";
import KanbanPage from "../features/kanban/KanbanPage";
import MessagesApiPage from "../features/messages-api/MessagesApiPage";
import QueuesPage from "../features/queues/QueuesPage";
import QuickMessagesPage from "../features/quick-messages/QuickMessagesPage";
import SchedulesPage from "../features/schedules/SchedulesPage";
import SettingsPage from "../features/settings/SettingsPage";
import SimulatorRoute from "../features/simulator/SimulatorRoute";
import SubscriptionPage from "../features/billing/SubscriptionPage";
import TagsPage from "../features/tags/TagsPage";
import TicketsPage from "../features/tickets/TicketsPage";
import TodoListPage from "../features/todolist/TodoListPage";
import UsersPage from "../features/users/UsersPage";
import { CampaignsRoute, DashboardRoute, PageRoute, PrivateRoute, PublicOnlyRoute } from "./guards";
import { AppLayout } from "./layout/AppLayout";

/** A page of the layout, behind its PAGE_ACCESS level (issue 16). */
function page(path: PagePath, element: ReactElement): RouteObject {
  return { path: path.slice(1), element: <PageRoute page={path}>{element}</PageRoute> };
}

/** The routes of spec §2. Exported as data so tests mount them in a memory router. */
export const routes: RouteObject[] = [
  {
    element: <PublicOnlyRoute />,
    children: [
      { path: "/login", element: <LoginPage /> },
      { path: "/signup", element: <SignupPage /> },
    ],
  },
  // The customer-phone simulator: private, or public with the connection's secret link (?key=). Full screen.
  { path: "/simulator/:connectionId?", element: <SimulatorRoute /> },
  {
    path: "/",
    element: <PrivateRoute />,
    children: [
      {
        element: <AppLayout />,
        children: [
          {
            index: true,
            element: (
              <DashboardRoute>
                <DashboardPage />
              </DashboardRoute>
            ),
          },
          page("/tickets/:ticketId?", <TicketsPage />),
          page("/connections", <ConnectionsPage />),
          page("/quick-messages", <QuickMessagesPage />),
          page("/todolist", <TodoListPage />),
          page("/schedules", <SchedulesPage />),
          page("/tags", <TagsPage />),
          page("/contacts", <ContactsPage />),
          page("/helps", <HelpsPage />),
          page("/users", <UsersPage />),
          page("/messages-api", <MessagesApiPage />),
          page("/settings", <SettingsPage />),
          page("/kanban", <KanbanPage />),
          page("/financeiro", <InvoicesPage />),
          page("/queues", <QueuesPage />),
          page("/announcements", <AnnouncementsPage />),
          page("/subscription", <SubscriptionPage />),
          page("/chats/:id?", <ChatsPage />),
          {
            element: <CampaignsRoute />,
            children: [
              page("/contact-lists", <ContactListsPage />),
              page("/contact-lists/:contactListId/contacts", <ContactListItemsPage />),
              page("/campaigns", <CampaignsPage />),
              page("/campaign/:campaignId/report", <CampaignReportPage />),
              page("/campaigns-config", <CampaignsConfigPage />),
            ],
          },
          { path: "*", element: <Navigate to="/" replace /> },
        ],
      },
    ],
  },
];
