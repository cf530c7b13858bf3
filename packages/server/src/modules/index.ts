import type { App } from "../app";
import type { AppContext } from "../context";
import type { EventDelivery } from "../realtime/rooms";
import { deliverContactEvents } from "./contacts/events";
import { registerContactRoutes } from "./contacts/routes";
import { deliverTagEvents } from "./tags/events";
import { registerTagRoutes } from "./tags/routes";
import { deliverQuickMessageEvents } from "./quickMessages/events";
import { registerQuickMessageRoutes } from "./quickMessages/routes";
import { deliverConnectionEvents } from "./connections/events";
import { registerConnectionRoutes } from "./connections/routes";
import { startConnectionHealth } from "./connections/health";
import { deliverSimulatorEvents } from "../channels/simulator/events";
import { registerSimulatorRoutes } from "../channels/simulator/routes";
import { startCloudApiWebhooks } from "../channels/cloudapi/webhook";
import { registerCloudApi } from "../channels/cloudapi/routes";
import { deliverAuthEvents } from "./auth/events";
import { registerAuthRoutes } from "./auth/routes";
import { registerCompanyRoutes } from "./companies/routes";
import { registerHealthRoutes } from "./health/routes";
import { registerPlanRoutes } from "./plans/routes";
import { registerHelpRoutes } from "./helps/routes";
import { deliverAnnouncementEvents } from "./announcements/events";
import { registerAnnouncementRoutes } from "./announcements/routes";
import { deliverSettingEvents } from "./settings/events";
import { registerSettingRoutes } from "./settings/routes";
import { deliverUserEvents } from "./users/events";
import { registerUserRoutes } from "./users/routes";
import { deliverTicketEvents } from "./tickets/events";
import { registerTicketRoutes } from "./tickets/routes";
import { registerQueueTransfer } from "./tickets/queueTransfer";
import { registerMediaRoutes } from "./media/routes";
import { deliverMessageEvents } from "./messages/events";
import { registerMessages } from "./messages/module";
import { registerTicketNoteRoutes } from "./ticketNotes/routes";
import { deliverQueueEvents } from "./queues/events";
import { registerQueueRoutes } from "./queues/routes";
import { registerOpeningHoursRoutes } from "./openingHours/routes";
import { registerChatbot } from "./chatbot/module";
import { registerDashboardRoutes } from "./dashboard/routes";
import { deliverBillingEvents } from "./billing/events";
import { registerBillingRoutes } from "./billing/routes";
import { deliverScheduleEvents } from "./schedules/events";
import { registerScheduleRoutes } from "./schedules/routes";
import { startScheduleSender } from "./schedules/sender";
import { startTicketTagsRelay } from "./kanban/events";
import { registerKanbanRoutes } from "./kanban/routes";
import { registerMessagesApiRoutes, startMessagesApi } from "./messagesApi/routes";
import { registerWebhookRoutes } from "./webhooks/routes";
import { startWebhooks } from "./webhooks/service";
import { registerNotificationRoutes } from "./notifications/routes";
import { startAlertMail } from "./notifications/smtp";
import { deliverContactListEvents } from "./contactLists/events";
import { registerContactListRoutes, startContactLists } from "./contactLists/routes";
import { deliverCampaignEvents } from "./campaigns/events";
import { registerCampaignRoutes } from "./campaigns/routes";
import { startCampaignDispatcher } from "./campaigns/dispatcher";
import { deliverChatEvents } from "./chats/events";
import { registerChatRoutes } from "./chats/routes";
import { registerOnboardingRoutes } from "./onboarding/routes";

/**
 * One entry per domain: its REST routes (under /api), how its events reach sockets (data, see
 * realtime/rooms.ts), and what it runs in the background — outbox consumers and jobs — started once per app
 * (`start` returns its teardown).
 */
export interface AppModule {
  name: string;
  routes?: (app: App) => void;
  deliver?: EventDelivery;
  start?: (ctx: AppContext) => (() => void) | void;
}

export const modules: AppModule[] = [
  { name: "health", routes: registerHealthRoutes },
  { name: "auth", routes: registerAuthRoutes, deliver: deliverAuthEvents },
  { name: "companies", routes: registerCompanyRoutes },
  { name: "plans", routes: registerPlanRoutes },
  { name: "helps", routes: registerHelpRoutes },
  { name: "announcements", routes: registerAnnouncementRoutes, deliver: deliverAnnouncementEvents },
  { name: "users", routes: registerUserRoutes, deliver: deliverUserEvents },
  { name: "settings", routes: registerSettingRoutes, deliver: deliverSettingEvents },
  { name: "connections", routes: registerConnectionRoutes, deliver: deliverConnectionEvents, start: startConnectionHealth },
  { name: "simulator", routes: registerSimulatorRoutes, deliver: deliverSimulatorEvents },
  { name: "cloudapi", routes: registerCloudApi, start: startCloudApiWebhooks },
  { name: "tickets", routes: registerTicketRoutes, deliver: deliverTicketEvents, start: registerQueueTransfer },
  { name: "media", routes: registerMediaRoutes },
  { name: "messages", routes: registerMessages, deliver: deliverMessageEvents },
  { name: "ticketNotes", routes: registerTicketNoteRoutes },
  { name: "contacts", routes: registerContactRoutes, deliver: deliverContactEvents },
  { name: "tags", routes: registerTagRoutes, deliver: deliverTagEvents },
  { name: "quickMessages", routes: registerQuickMessageRoutes, deliver: deliverQuickMessageEvents },
  { name: "queues", routes: registerQueueRoutes, deliver: deliverQueueEvents },
  { name: "openingHours", routes: registerOpeningHoursRoutes },
  // After "messages": it hooks into the inbound pipeline that module creates.
  { name: "chatbot", routes: registerChatbot },
  { name: "dashboard", routes: registerDashboardRoutes },
  { name: "billing", routes: registerBillingRoutes, deliver: deliverBillingEvents },
  { name: "schedules", routes: registerScheduleRoutes, deliver: deliverScheduleEvents, start: startScheduleSender },
  { name: "kanban", routes: registerKanbanRoutes, start: startTicketTagsRelay },
  // POST /api/messages/send: a static path, so it wins over messages' POST /messages/:ticketId.
  { name: "messagesApi", routes: registerMessagesApiRoutes, start: startMessagesApi },
  { name: "webhooks", routes: registerWebhookRoutes, start: startWebhooks },
  { name: "notifications", routes: registerNotificationRoutes, start: startAlertMail },
  { name: "contactLists", routes: registerContactListRoutes, deliver: deliverContactListEvents, start: startContactLists },
  { name: "campaigns", routes: registerCampaignRoutes, deliver: deliverCampaignEvents, start: startCampaignDispatcher },
  { name: "chats", routes: registerChatRoutes, deliver: deliverChatEvents },
  { name: "onboarding", routes: registerOnboardingRoutes },
];
