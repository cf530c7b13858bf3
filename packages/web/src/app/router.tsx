import type { PagePath } from "@balcao/shared";
import { lazy, Suspense, type ComponentType, type LazyExoticComponent, type ReactElement } from "react";
import { Navigate, type RouteObject } from "react-router";
import { CampaignsRoute, DashboardRoute, PageRoute, PrivateRoute, PublicOnlyRoute } from "./guards";
import { LoadingState } from "../components/LoadingState";
import { loadPageTexts } from "./i18n";

/** A page whose texts are not in a language's bundle (i18n.ts, loadPageTexts): it shows once they are loaded too. */
function withPageTexts<T>(load: () => Promise<T>): () => Promise<T> {
  return () => Promise.all([load(), loadPageTexts()]).then(([module]) => module);
}

/*
 * Every page is its own chunk (issue 20): the login page does not download the tickets page, the layout, the
 * charts… Each loads when its route is first shown, with the app's LoadingState meanwhile.
 */
const AnnouncementsPage = lazy(() => import("../features/announcements/AnnouncementsPage"));
const LoginRoute = lazy(() => import("../features/auth/LoginRoute"));
const SignupPage = lazy(() => import("../features/auth/SignupPage"));
const CampaignReportPage = lazy(withPageTexts(() => import("../features/campaigns/CampaignReportPage")));
const CampaignsConfigPage = lazy(withPageTexts(() => import("../features/campaigns/CampaignsConfigPage")));
const CampaignsPage = lazy(withPageTexts(() => import("../features/campaigns/CampaignsPage")));
const ChatsPage = lazy(() => import("../features/chats/ChatsPage"));
const ConnectionsPage = lazy(() => import("../features/connections/ConnectionsPage"));
const ContactListItemsPage = lazy(withPageTexts(() => import("../features/contact-lists/ContactListItemsPage")));
const ContactListsPage = lazy(withPageTexts(() => import("../features/contact-lists/ContactListsPage")));
const ContactsPage = lazy(() => import("../features/contacts/ContactsPage"));
const DashboardPage = lazy(() => import("../features/dashboard/DashboardPage"));
const HelpsPage = lazy(withPageTexts(() => import("../features/helps/HelpsPage")));
const InvoicesPage = lazy(() => import("../features/billing/InvoicesPage"));
const KanbanPage = lazy(withPageTexts(() => import("../features/kanban/KanbanPage")));
const MessagesApiPage = lazy(withPageTexts(() => import("../features/messages-api/MessagesApiPage")));
const QueuesPage = lazy(withPageTexts(() => import("../features/queues/QueuesPage")));
const QuickMessagesPage = lazy(withPageTexts(() => import("../features/quick-messages/QuickMessagesPage")));
const SchedulesPage = lazy(() => import("../features/schedules/SchedulesPage"));
const SettingsPage = lazy(withPageTexts(() => import("../features/settings/SettingsPage")));
const SimulatorRoute = lazy(withPageTexts(() => import("../features/simulator/SimulatorRoute")));
const SubscriptionPage = lazy(() => import("../features/billing/SubscriptionPage"));
const TagsPage = lazy(() => import("../features/tags/TagsPage"));
const TicketsPage = lazy(() => import("../features/tickets/TicketsPage"));
const TodoListPage = lazy(withPageTexts(() => import("../features/todolist/TodoListPage")));
const UsersPage = lazy(() => import("../features/users/UsersPage"));
const AppLayout = lazy(() => import("./layout/AppLayout").then((module) => ({ default: module.AppLayout })));

/** A lazy page behind a Suspense boundary: the spinner of the app's loading states while its chunk downloads. */
function show(Page: LazyExoticComponent<ComponentType>, fullScreen = false): ReactElement {
  return (
    <Suspense fallback={<LoadingState fullScreen={fullScreen} />}>
      <Page />
    </Suspense>
  );
}

/** A page of the layout, behind its PAGE_ACCESS level (issue 16). */
function page(path: PagePath, element: ReactElement): RouteObject {
  return { path: path.slice(1), element: <PageRoute page={path}>{element}</PageRoute> };
}

/** The routes of spec §2. Exported as data so tests mount them in a memory router. */
export const routes: RouteObject[] = [
  {
    element: <PublicOnlyRoute />,
    children: [
      { path: "/login", element: show(LoginRoute, true) },
      { path: "/signup", element: show(SignupPage, true) },
    ],
  },
  // The customer-phone simulator: private, or public with the connection's secret link (?key=). Full screen.
  { path: "/simulator/:connectionId?", element: show(SimulatorRoute, true) },
  {
    path: "/",
    element: <PrivateRoute />,
    children: [
      {
        element: show(AppLayout, true),
        children: [
          {
            index: true,
            element: <DashboardRoute>{show(DashboardPage)}</DashboardRoute>,
          },
          page("/tickets/:ticketId?", show(TicketsPage)),
          page("/connections", show(ConnectionsPage)),
          page("/quick-messages", show(QuickMessagesPage)),
          page("/todolist", show(TodoListPage)),
          page("/schedules", show(SchedulesPage)),
          page("/tags", show(TagsPage)),
          page("/contacts", show(ContactsPage)),
          page("/helps", show(HelpsPage)),
          page("/users", show(UsersPage)),
          page("/messages-api", show(MessagesApiPage)),
          page("/settings", show(SettingsPage)),
          page("/kanban", show(KanbanPage)),
          page("/financeiro", show(InvoicesPage)),
          page("/queues", show(QueuesPage)),
          page("/announcements", show(AnnouncementsPage)),
          page("/subscription", show(SubscriptionPage)),
          page("/chats/:id?", show(ChatsPage)),
          {
            element: <CampaignsRoute />,
            children: [
              page("/contact-lists", show(ContactListsPage)),
              page("/contact-lists/:contactListId/contacts", show(ContactListItemsPage)),
              page("/campaigns", show(CampaignsPage)),
              page("/campaign/:campaignId/report", show(CampaignReportPage)),
              page("/campaigns-config", show(CampaignsConfigPage)),
            ],
          },
          { path: "*", element: <Navigate to="/" replace /> },
        ],
      },
    ],
  },
];
