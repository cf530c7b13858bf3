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
import { CampaignsRoute, DashboardRoute, PrivateRoute, PublicOnlyRoute } from "./guards";
import { AppLayout } from "./layout/AppLayout";

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
          { path: "tickets/:ticketId?", element: <TicketsPage /> },
          { path: "connections", element: <ConnectionsPage /> },
          { path: "quick-messages", element: <QuickMessagesPage /> },
          { path: "todolist", element: <TodoListPage /> },
          { path: "schedules", element: <SchedulesPage /> },
          { path: "tags", element: <TagsPage /> },
          { path: "contacts", element: <ContactsPage /> },
          { path: "helps", element: <HelpsPage /> },
          { path: "users", element: <UsersPage /> },
          { path: "messages-api", element: <MessagesApiPage /> },
          { path: "settings", element: <SettingsPage /> },
          { path: "kanban", element: <KanbanPage /> },
          { path: "financeiro", element: <InvoicesPage /> },
          { path: "queues", element: <QueuesPage /> },
          { path: "announcements", element: <AnnouncementsPage /> },
          { path: "subscription", element: <SubscriptionPage /> },
          { path: "chats/:id?", element: <ChatsPage /> },
          {
            element: <CampaignsRoute />,
            children: [
              { path: "contact-lists", element: <ContactListsPage /> },
              { path: "contact-lists/:contactListId/contacts", element: <ContactListItemsPage /> },
              { path: "campaigns", element: <CampaignsPage /> },
              { path: "campaign/:campaignId/report", element: <CampaignReportPage /> },
              { path: "campaigns-config", element: <CampaignsConfigPage /> },
            ],
          },
          { path: "*", element: <Navigate to="/" replace /> },
        ],
      },
    ],
  },
];
