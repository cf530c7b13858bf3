/**
 * Each route's documented answers by status (issue 19), keyed like the access table (http/access.ts):
 * `METHOD /path/{param}` without the /api prefix. The schemas come from @balcao/shared; responses.ts
 * attaches them to the routes and checks every answer against them in tests.
 */
import {
  announcementDto,
  announcementListResponse,
  authResponse,
  campaignDetailDto,
  campaignDto,
  campaignListResponse,
  campaignSettingRow,
  campaignShippingListResponse,
  chatDto,
  chatListResponse,
  chatMessageDto,
  chatMessagesResponse,
  cloudApiTemplateListResponse,
  cloudApiWindowDto,
  companyDto,
  companyListResponse,
  companySchedulesDto,
  CONNECTION_STATUSES,
  connectionDto,
  connectionHealthDto,
  contactDto,
  contactImportResponse,
  contactListDto,
  contactListImportDto,
  contactListItemDto,
  contactListItemsResponse,
  contactListResponse,
  contactListsResponse,
  dashboardResponse,
  helpDto,
  helpListResponse,
  invoiceDto,
  invoiceListResponse,
  kanbanResponse,
  messageDto,
  messageListResponse,
  notificationListResponse,
  notificationsReadResponse,
  onboardingDto,
  pairingCodeDto,
  pixChargeDto,
  planDto,
  planWithUsageDto,
  platformInvoiceListResponse,
  queueDto,
  queueOptionDto,
  quickMessageDto,
  quickMessageListResponse,
  reportsResponse,
  scheduleDto,
  scheduleListResponse,
  sendApiResponse,
  settingDto,
  signupResponse,
  simulatorConnectionAnswer,
  simulatorGroupDto,
  simulatorGroupMessageDto,
  simulatorLinkDto,
  simulatorMessageDto,
  simulatorPhoneDto,
  simulatorStateDto,
  smtpSettingsDto,
  smtpTestResponse,
  tagDto,
  tagKanbanResponse,
  tagListResponse,
  ticketDto,
  ticketListResponse,
  ticketNoteDto,
  ticketTagsResponse,
  userDto,
  userListResponse,
  userSimpleDto,
  webhookDeliveryDto,
  webhookDeliveryListResponse,
  webhookDto,
} from "@balcao/shared";
import { z, type ZodType } from "zod";

/** A file answer (download, export, transcript): its content types, the body being the file itself. */
export interface FileResponse {
  description: string;
  content: Record<string, { schema: ZodType }>;
}

export type RouteResponses = Partial<Record<number, ZodType | FileResponse>>;

/** 204: the body is empty. */
const NO_CONTENT = z.null().describe("No content");
const ok = (schema: ZodType): RouteResponses => ({ 200: schema });
const created = (schema: ZodType): RouteResponses => ({ 201: schema });
const noContent: RouteResponses = { 204: NO_CONTENT };
/** `{ message }` some deletions answer (the reference's wording). */
const messageAnswer = z.object({ message: z.string() });

/** 200 with a file of one of these content types. */
const file = (description: string, ...types: string[]): RouteResponses => ({
  200: { description, content: Object.fromEntries(types.map((type) => [type, { schema: z.string().meta({ format: "binary" }) }])) },
});
const CSV = "text/csv";
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** The record routes of a resource: GET, PUT and DELETE (204) `base/{id}`, POST `base` (201). */
const record = (base: string, schema: ZodType): Record<string, RouteResponses> => ({
  [`GET ${base}/{id}`]: ok(schema),
  [`POST ${base}`]: created(schema),
  [`PUT ${base}/{id}`]: ok(schema),
  [`DELETE ${base}/{id}`]: noContent,
});

export const ROUTE_RESPONSES: Record<string, RouteResponses> = {
  "GET /metrics": file("Prometheus metrics in the text exposition format (METRICS_TOKEN as bearer)", "text/plain"),
  "GET /health": { 200: z.object({ status: z.literal("ok") }), 503: z.object({ status: z.literal("unavailable") }) },

  // sessions
  "POST /auth/login": ok(authResponse),
  "POST /auth/refresh_token": ok(authResponse),
  "DELETE /auth/logout": noContent,
  "GET /auth/me": ok(userDto),

  // companies (sign-up and platform administration)
  "POST /companies/cadastro": created(signupResponse),
  "GET /companies": ok(companyListResponse),
  "GET /companies/list": ok(z.array(companyDto)),
  ...record("/companies", companyDto),
  "GET /companies/{id}/settings": ok(z.array(settingDto)),
  "PUT /companies/{id}/settings/{key}": ok(settingDto),
  "GET /companies/{id}/schedules": ok(companySchedulesDto),
  "PUT /companies/{id}/schedules": ok(companySchedulesDto),

  // users
  "GET /users/": ok(userListResponse),
  "GET /users/list": ok(z.array(userSimpleDto)),
  ...record("/users", userDto),

  // contacts
  "GET /contacts": ok(contactListResponse),
  "GET /contacts/list": ok(z.array(contactDto)),
  "POST /contacts/import": ok(contactImportResponse),
  ...record("/contacts", contactDto),

  // queues and their chatbot options
  "GET /queue": ok(z.array(queueDto)),
  ...record("/queue", queueDto),
  "GET /queue-options": ok(z.array(queueOptionDto)),
  ...record("/queue-options", queueOptionDto),

  // tickets and messages
  "GET /tickets": ok(ticketListResponse),
  "GET /tickets/u/{uuid}": ok(ticketDto),
  ...record("/tickets", ticketDto),
  "DELETE /tickets/{id}": ok(messageAnswer),
  "POST /tickets/{id}/read": noContent,
  "GET /ticket/kanban": ok(kanbanResponse),
  "PUT /ticket/kanban/{ticketId}": ok(ticketDto),
  "GET /messages/{ticketId}": ok(messageListResponse),
  "POST /messages/{ticketId}": created(z.array(messageDto)),
  "POST /messages/{id}/retry": ok(messageDto),
  "DELETE /messages/{id}": ok(messageDto),
  "GET /ticket-notes/list": ok(z.array(ticketNoteDto)),
  "POST /ticket-notes": created(ticketNoteDto),
  "DELETE /ticket-notes/{id}": ok(messageAnswer),

  // scheduled messages
  "GET /schedules": ok(scheduleListResponse),
  ...record("/schedules", scheduleDto),
  "POST /schedules/{id}/retry": ok(scheduleDto),

  // internal chat
  "GET /chats": ok(chatListResponse),
  ...record("/chats", chatDto),
  "GET /chats/{id}/messages": ok(chatMessagesResponse),
  "POST /chats/{id}/messages": created(chatMessageDto),
  "POST /chats/{id}/read": ok(chatDto),

  // outgoing webhooks
  "GET /webhooks": ok(z.array(webhookDto)),
  "POST /webhooks": created(webhookDto),
  "PUT /webhooks/{id}": ok(webhookDto),
  "DELETE /webhooks/{id}": noContent,
  "GET /webhooks/{id}/deliveries": ok(webhookDeliveryListResponse),
  "POST /webhooks/deliveries/{id}/resend": ok(webhookDeliveryDto),
  // connection-alert bell and SMTP e-mail setting (issue 21)
  "GET /notifications": ok(notificationListResponse),
  "PUT /notifications/read": ok(notificationsReadResponse),
  "GET /settings/smtp": ok(smtpSettingsDto),
  "PUT /settings/smtp": ok(smtpSettingsDto),
  "POST /settings/smtp/test": ok(smtpTestResponse),

  // first-run checklist
  "GET /onboarding": ok(onboardingDto),
  "PUT /onboarding": ok(onboardingDto),

  // files
  "GET /media/{id}": file("The stored file (image, audio, video or document), with its own content type", "*/*"),
  "GET /tickets/{id}/transcript": file("The ticket's conversation as a printable page", "text/html"),

  // announcements (platform news)
  "GET /announcements": ok(announcementListResponse),
  ...record("/announcements", announcementDto),
  "POST /announcements/{id}/read": ok(announcementDto),
  "POST /announcements/{id}/media-upload": ok(announcementDto),
  "DELETE /announcements/{id}/media-upload": ok(announcementDto),
  "GET /announcements/{id}/media/{mediaId}": file("The announcement's attachment", "*/*"),

  // billing
  "GET /invoices/all": ok(invoiceListResponse),
  "POST /subscription": created(pixChargeDto),
  "GET /invoices/platform": ok(platformInvoiceListResponse),
  "POST /invoices/{id}/confirm-payment": ok(z.object({ applied: z.boolean(), invoice: invoiceDto })),
  "POST /pix-sandbox/pay": ok(z.object({ txid: z.string(), endToEndId: z.string(), webhookStatus: z.number().nullable() })),

  // dashboard and reports
  "GET /dashboard": ok(dashboardResponse),
  "GET /dashboard/reports": ok(reportsResponse),
  "GET /dashboard/reports/export": file("The reports as a spreadsheet", CSV, XLSX),

  // contact lists (campaign audiences)
  "GET /contact-lists": ok(contactListsResponse),
  "GET /contact-lists/list": ok(z.array(contactListDto)),
  "GET /contact-lists/sample": file("A sample spreadsheet to fill in", CSV, XLSX),
  ...record("/contact-lists", contactListDto),
  "POST /contact-lists/{id}/upload": { 201: contactListImportDto, 202: contactListImportDto },
  "GET /contact-lists/{id}/imports/{importId}": ok(contactListImportDto),
  "GET /contact-list-items": ok(contactListItemsResponse),
  ...record("/contact-list-items", contactListItemDto),

  // campaigns
  "GET /campaigns": ok(campaignListResponse),
  ...record("/campaigns", campaignDto),
  "GET /campaigns/{id}": ok(campaignDetailDto),
  "GET /campaigns/{id}/shipping": ok(campaignShippingListResponse),
  "GET /campaigns/{id}/export": file("The campaign's shipping report", CSV),
  "POST /campaigns/{id}/cancel": ok(campaignDto),
  "POST /campaigns/{id}/restart": ok(campaignDto),
  "POST /campaigns/{id}/media-upload": ok(campaignDto),
  "DELETE /campaigns/{id}/media-upload": ok(campaignDto),
  "GET /campaign-settings": ok(z.array(campaignSettingRow)),
  "POST /campaign-settings": ok(z.array(campaignSettingRow)),

  // the company's settings
  "GET /settings": ok(z.array(settingDto)),
  "PUT /settings/{key}": ok(settingDto),

  // connections (WhatsApp numbers) and their sessions
  "GET /whatsapp/": ok(z.array(connectionDto)),
  ...record("/whatsapp", connectionDto),
  "POST /whatsapp/{id}/token": ok(connectionDto),
  "GET /whatsapp/{id}/health": ok(connectionHealthDto),
  "POST /whatsappsession/{id}/pairing-code": ok(pairingCodeDto),
  "POST /whatsappsession/{id}": ok(connectionDto),
  "PUT /whatsappsession/{id}": ok(connectionDto),
  "DELETE /whatsappsession/{id}": ok(connectionDto),

  // WhatsApp Cloud API
  "GET /cloudapi/{connectionId}/webhook": file("Meta's verification: the hub.challenge echoed", "text/plain"),
  "POST /cloudapi/{connectionId}/webhook": ok(z.object({ ok: z.literal(true) })),
  "GET /cloudapi/{connectionId}/templates": ok(cloudApiTemplateListResponse),
  "POST /cloudapi/{connectionId}/templates/sync": ok(cloudApiTemplateListResponse),
  "GET /cloudapi/tickets/{ticketId}/window": ok(cloudApiWindowDto),
  "POST /cloudapi/tickets/{ticketId}/template": created(z.array(messageDto)),
  "POST /cloudapi/messages/{messageId}/reaction": noContent,

  // the simulator (a WhatsApp stand-in for trials and tests)
  "GET /simulator/connections": ok(
    z.array(z.object({ id: z.number(), name: z.string(), status: z.enum(CONNECTION_STATUSES), qrcode: z.string().nullable() })),
  ),
  "GET /simulator/{connectionId}": ok(simulatorStateDto),
  "GET /simulator/{connectionId}/link": ok(simulatorLinkDto),
  "POST /simulator/{connectionId}/connection": ok(simulatorConnectionAnswer),
  "GET /simulator/{connectionId}/groups": ok(z.array(simulatorGroupDto)),
  "POST /simulator/{connectionId}/groups": created(simulatorGroupDto),
  "PUT /simulator/{connectionId}/groups/{groupId}": ok(simulatorGroupDto),
  "POST /simulator/{connectionId}/groups/{groupId}/messages": created(simulatorGroupMessageDto),
  "POST /simulator/{connectionId}/scan": ok(z.object({ status: z.enum(CONNECTION_STATUSES) })),
  "GET /simulator/{connectionId}/phones": ok(z.array(simulatorPhoneDto)),
  "POST /simulator/{connectionId}/phones": created(simulatorPhoneDto),
  "POST /simulator/{connectionId}/phones/{number}/calls": created(simulatorMessageDto),
  "GET /simulator/{connectionId}/phones/{number}/messages": ok(z.array(simulatorMessageDto)),
  // 202: the connection is down, the message is held for its next CONNECTED (issue 21).
  "POST /simulator/{connectionId}/phones/{number}/messages": { 201: simulatorMessageDto, 202: simulatorMessageDto },
  "DELETE /simulator/{connectionId}/phones/{number}/messages/{messageId}": noContent,
  "POST /simulator/{connectionId}/phones/{number}/messages/{messageId}/ack": noContent,
  "POST /simulator/{connectionId}/phones/{number}/messages/{messageId}/reaction": ok(simulatorMessageDto),
  "POST /simulator/{connectionId}/phones/{number}/messages/{messageId}/edit": ok(simulatorMessageDto),
  "GET /simulator/{connectionId}/phones/{number}/messages/{messageId}/media": file("The message's file", "*/*"),

  // send API (integrators)
  "POST /messages/send": ok(sendApiResponse),

  // tags
  "GET /tags/": ok(tagListResponse),
  "GET /tags/list": ok(z.array(tagDto)),
  "GET /tags/kanban": ok(tagKanbanResponse),
  "POST /tags/sync": ok(ticketTagsResponse),
  ...record("/tags", tagDto),
  "DELETE /ticket-tags/{ticketId}": ok(ticketTagsResponse),
  "PUT /ticket-tags/{ticketId}/{tagId}": ok(ticketTagsResponse),

  // quick messages
  "GET /quick-messages": ok(quickMessageListResponse),
  "GET /quick-messages/list": ok(z.array(quickMessageDto)),
  ...record("/quick-messages", quickMessageDto),

  // helps
  "GET /helps": ok(helpListResponse),
  "GET /helps/list": ok(z.array(helpDto)),
  ...record("/helps", helpDto),

  // plans
  "GET /plans/list": ok(z.array(planDto)),
  "GET /plans/all": ok(z.array(planWithUsageDto)),
  ...record("/plans", planWithUsageDto),
};
