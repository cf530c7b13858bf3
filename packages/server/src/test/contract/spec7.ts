/**
 * Spec §7 ("The calls it makes") as one table: every call the spec's client makes, written the way that
 * client writes it (query values as strings, id lists as JSON text, "" for fields left empty). The contract
 * suite (contract.test.ts) makes each call on BOTH mounts — the web app's `/api/...` and the backend
 * listener's root paths — and requires a 2xx answer carrying the keys the spec names.
 *
 * Editing: one row per line. `{name}` in a path, query or body is a fresh fixture made for that call
 * (FIXTURES in contract.test.ts; add one when a new domain needs it). A domain still being built marks its
 * rows `pending: "<who>"`; a pending row whose route exists fails the suite, so remove the marks in the
 * same change that adds the routes.
 */

/** Who makes the call: the company admin (default), a platform super user, nobody (public), a fresh login on
 * the same mount (its refresh cookie sent only where a browser would send it), or a connection's API token. */
export type Caller = "admin" | "super" | "public" | "session" | "connection";

export interface SpecCall {
  /** "METHOD /path" as spec §7 writes it. Paths starting with /api are the same on both mounts. */
  call: string;
  /** Tells apart two rows of one call (e.g. JSON vs multipart). */
  note?: string;
  as?: Caller;
  query?: Record<string, string>;
  body?: unknown;
  /** multipart/form-data fields; a value "@png" is a small PNG file. */
  multipart?: Record<string, string>;
  /** Keys the spec names in the answer ("a.b" nested; "[].key" on every element of a non-empty array). */
  keys?: string[];
  /** The expected status when it is not just any 2xx. */
  status?: number;
  /** Not built yet: who builds it. */
  pending?: string;
}

const SCHEDULES = [
  { weekday: "Segunda-feira", weekdayEn: "monday", startTime: "08:00", endTime: "18:00" },
  { weekday: "Sábado", weekdayEn: "saturday", startTime: "08:00", endTime: "12:00" },
  { weekday: "Domingo", weekdayEn: "sunday", startTime: "00:00", endTime: "00:00" },
];
const PAGE = { searchParam: "", pageNumber: "1" };
const CONNECTION = {
  greetingMessage: "",
  complationMessage: "",
  outOfHoursMessage: "",
  ratingMessage: "",
  isDefault: false,
  token: "",
  provider: "beta",
  timeSendQueue: 0,
  sendIdQueue: 0,
  queueIds: [],
};

export const SPEC7: SpecCall[] = [
  // Auth
  { call: "POST /auth/login", as: "public", body: { email: "{loginEmail}", password: "{loginPassword}" }, keys: ["token", "user", "user.company"] },
  { call: "POST /auth/refresh_token", as: "session", keys: ["token", "user"] },
  { call: "DELETE /auth/logout", as: "session" },
  { call: "GET /auth/me" },
  // Tickets
  {
    call: "GET /tickets",
    query: { ...PAGE, status: "open", showAll: "false", queueIds: "[]", tags: "[]", users: "[]", withUnreadMessages: "false" },
    keys: ["tickets", "hasMore"],
  },
  {
    call: "GET /tickets",
    note: "search tab",
    query: { searchParam: "contato", pageNumber: "1", tags: "[]", users: "[]", showAll: "true", queueIds: "[{queueId}]", date: "", updatedAt: "" },
    keys: ["tickets", "hasMore"],
  },
  { call: "GET /tickets/{ticketId}" },
  { call: "GET /tickets/u/{ticketUuid}", keys: ["queueId", "contact", "user"] },
  { call: "POST /tickets", body: { contactId: "{contactId}", queueId: "", userId: "{adminId}", status: "open" }, status: 201 },
  { call: "PUT /tickets/{ticketId}", body: { status: "closed", userId: "{adminId}", queueId: null } },
  { call: "DELETE /tickets/{ticketId}" },
  { call: "GET /ticket/kanban", query: { queueIds: "[{queueId}]" }, keys: ["tickets"] },
  // Messages
  { call: "GET /messages/{ticketId}", query: { pageNumber: "1" }, keys: ["messages", "hasMore"] },
  {
    call: "POST /messages/{ticketId}",
    note: "JSON",
    body: { read: 1, fromMe: true, mediaUrl: "", body: "Olá, tudo bem?", quotedMsg: null },
    status: 201,
  },
  { call: "POST /messages/{ticketId}", note: "multipart", multipart: { medias: "@png", body: "foto", fromMe: "true" }, status: 201 },
  { call: "DELETE /messages/{messageId}" },
  { call: "GET /api/media/{mediaId}", note: "media URL fetched as blob" },
  // Ticket notes
  { call: "POST /ticket-notes", body: { note: "Cliente pediu retorno", ticketId: "{ticketId}", contactId: "{contactId}" }, status: 201 },
  { call: "DELETE /ticket-notes/{noteId}" },
  { call: "GET /ticket-notes/list", query: { ticketId: "{ticketId}", contactId: "{contactId}" } },
  // Tags
  { call: "GET /tags/list" },
  { call: "GET /tags/", query: PAGE, keys: ["tags", "hasMore"] },
  { call: "GET /tags/{tagId}" },
  { call: "POST /tags", note: "ticket header: name only", body: { name: "Tag {uniq}" }, status: 201 },
  { call: "POST /tags", note: "tags page, no colour picked", body: { name: "Tag {uniq}", color: "", kanban: 0, userId: "{adminId}" }, status: 201 },
  { call: "PUT /tags/{tagId}", body: { name: "Tag {uniq}", color: "", kanban: 0, userId: "{adminId}" } },
  { call: "DELETE /tags/{tagId}" },
  { call: "POST /tags/sync", body: { ticketId: "{ticketId}", tags: [{ id: "{tagId}", name: "Tag", color: "#2E7D32" }] } },
  { call: "GET /tags/kanban", keys: ["lista"] },
  { call: "DELETE /ticket-tags/{ticketId}" },
  { call: "PUT /ticket-tags/{ticketId}/{tagId}" },
  // Users
  { call: "GET /users/list", query: { companyId: "{companyId}" } },
  { call: "GET /users/", query: PAGE, keys: ["users", "hasMore"] },
  { call: "GET /users/{userId}" },
  {
    call: "POST /users",
    body: {
      name: "Atendente {uniq}",
      email: "atendente-{uniq}@exemplo.com",
      password: "secret-123",
      profile: "user",
      queueIds: [],
      whatsappId: "",
      allTicket: "disable",
    },
    status: 201,
  },
  {
    call: "PUT /users/{userId}",
    body: {
      name: "Atendente {uniq}",
      email: "outro-{uniq}@exemplo.com",
      password: "",
      profile: "user",
      queueIds: ["{queueId}"],
      companyId: "{companyId}",
    },
  },
  { call: "DELETE /users/{userId}" },
  // Queues and their option trees
  { call: "GET /queue", query: { companyId: "{companyId}" } },
  { call: "GET /queue/{queueId}" },
  {
    call: "POST /queue",
    body: { name: "Fila {uniq}", color: "{color}", greetingMessage: "", outOfHoursMessage: "", schedules: SCHEDULES },
    status: 201,
  },
  {
    call: "PUT /queue/{queueId}",
    body: { name: "Fila {uniq}", color: "{color}", greetingMessage: "Bem-vindo!", outOfHoursMessage: "", schedules: SCHEDULES },
  },
  { call: "DELETE /queue/{queueId}" },
  { call: "GET /queue-options", query: { queueId: "{queueId}", parentId: "-1" } },
  { call: "POST /queue-options", body: { title: "Financeiro", message: "", option: "1", queueId: "{queueId}", parentId: null }, status: 201 },
  { call: "PUT /queue-options/{queueOptionId}", body: { title: "Suporte", message: "Fale com o suporte", option: "2" } },
  { call: "DELETE /queue-options/{queueOptionId}" },
  // Contacts
  { call: "GET /contacts/", query: PAGE, keys: ["contacts", "hasMore"] },
  { call: "GET /contacts/{contactId}" },
  { call: "GET /contacts/list", query: { companyId: "{companyId}" } },
  { call: "POST /contacts", body: { name: "Contato {uniq}", number: "{phone}", email: "", extraInfo: [] }, status: 201 },
  { call: "PUT /contacts/{contactId}", body: { name: "Contato {uniq}", number: "{phone}", email: "", extraInfo: [{ name: "CPF", value: "123" }] } },
  { call: "DELETE /contacts/{contactId}" },
  { call: "POST /contacts/import" },
  // Quick messages
  { call: "GET /quick-messages/list", query: { companyId: "{companyId}", userId: "{adminId}" } },
  { call: "POST /quick-messages", body: { shortcode: "oi{uniq}", message: "Olá! Como posso ajudar?", userId: "{adminId}" }, status: 201 },
  { call: "PUT /quick-messages/{quickMessageId}", body: { shortcode: "tchau{uniq}", message: "Até logo!", userId: "{adminId}" } },
  { call: "DELETE /quick-messages/{quickMessageId}" },
  // Schedules
  { call: "GET /schedules/", query: PAGE, keys: ["schedules", "hasMore"] },
  { call: "GET /schedules/{scheduleId}" },
  { call: "POST /schedules", body: { body: "Lembrete da consulta", contactId: "{contactId}", sendAt: "{inOneHour}" }, status: 201 },
  { call: "PUT /schedules/{scheduleId}", body: { body: "Lembrete remarcado", contactId: "{contactId}", sendAt: "{inOneHour}" } },
  { call: "DELETE /schedules/{scheduleId}" },
  { call: "PUT /companies/{companyId}/schedules", body: { schedules: SCHEDULES } },
  // Connections
  { call: "GET /whatsapp/", query: { session: "0", companyId: "{companyId}" } },
  { call: "GET /whatsapp/{whatsappId}", note: "?session=0", query: { session: "0" } },
  { call: "GET /whatsapp/{whatsappId}", note: "QR dialog", keys: ["qrcode"] },
  { call: "POST /whatsapp", body: { name: "Conexão {uniq}", ...CONNECTION }, status: 201 },
  { call: "PUT /whatsapp/{whatsappId}", body: { name: "Conexão {uniq}", ...CONNECTION, queueIds: ["{queueId}"] } },
  { call: "DELETE /whatsapp/{whatsappId}" },
  { call: "POST /whatsappsession/{whatsappId}", note: "retry" },
  { call: "PUT /whatsappsession/{whatsappId}", note: "new QR" },
  { call: "DELETE /whatsappsession/{whatsappId}", note: "disconnect" },
  // Settings
  { call: "GET /settings", keys: ["[].key", "[].value"] },
  { call: "PUT /settings/{settingKey}", body: { key: "userRating", value: "enabled" } },
  // Dashboard
  { call: "GET /dashboard", query: { days: "7", date_from: "", date_to: "" }, keys: ["counters", "attendants"] },
  // Companies
  {
    call: "POST /companies/cadastro",
    as: "public",
    body: {
      name: "Empresa {uniq}",
      email: "empresa-{uniq}@exemplo.com",
      phone: "11999990000",
      password: "secret-123",
      planId: "{planId}",
      recurrence: "MENSAL",
      dueDate: "",
      status: "t",
      campaignsEnabled: true,
    },
    status: 201,
  },
  {
    call: "POST /companies",
    as: "super",
    body: {
      name: "Empresa {uniq}",
      email: "empresa-{uniq}@exemplo.com",
      phone: "",
      password: "secret-123",
      planId: "{planId}",
      recurrence: "MENSAL",
      dueDate: "",
      status: true,
      campaignsEnabled: true,
    },
    status: 201,
  },
  {
    call: "PUT /companies/{otherCompanyId}",
    as: "super",
    body: {
      name: "Empresa {uniq}",
      email: "empresa-{uniq}@exemplo.com",
      phone: "",
      planId: "{planId}",
      recurrence: "MENSAL",
      dueDate: "",
      status: true,
      campaignsEnabled: true,
    },
  },
  { call: "DELETE /companies/{otherCompanyId}", as: "super" },
  { call: "GET /companies/list", as: "super" },
  { call: "GET /companies/{otherCompanyId}", as: "super" },
  { call: "GET /companies", as: "super", query: PAGE },
  // Plans
  { call: "GET /plans/list", as: "public" },
  { call: "GET /plans/all", as: "super" },
  { call: "POST /plans", as: "super", body: { name: "Plano {uniq}", users: 5, connections: 2, queues: 3, value: "99.90" }, status: 201 },
  { call: "PUT /plans/{planId}", as: "super", body: { name: "Plano {uniq}", users: 10, connections: 2, queues: 3, value: "149.90" } },
  { call: "GET /plans/{planId}", as: "super" },
  { call: "DELETE /plans/{planId}", as: "super" },
  // Helps
  { call: "GET /helps", as: "super" },
  { call: "GET /helps/list" },
  { call: "POST /helps", as: "super", body: { title: "Como conectar", description: "", video: "dQw4w9WgXcQ" }, status: 201 },
  { call: "PUT /helps/{helpId}", as: "super", body: { title: "Como conectar o WhatsApp", description: "Passo a passo", video: "dQw4w9WgXcQ" } },
  { call: "DELETE /helps/{helpId}", as: "super" },
  // Billing
  {
    call: "POST /subscription",
    body: {
      firstName: "Ana",
      lastName: "Souza",
      address2: "Centro",
      city: "São Paulo",
      state: "SP",
      zipcode: "01001000",
      country: "BR",
      useAddressForPaymentDetails: false,
      nameOnCard: "",
      cardNumber: "",
      cvv: "",
      plan: "{invoicePlan}",
      price: "{invoicePrice}",
      users: 5,
      connections: 2,
      invoiceId: "{invoiceId}",
    },
    keys: ["qrcode.qrcode", "valor.original"],
  },
  { call: "GET /invoices/all", query: PAGE, keys: ["list", "hasMore"] },
  // Send API (bearer = the connection's token)
  {
    call: "POST /api/messages/send",
    note: "JSON",
    as: "connection",
    body: { number: "{phone}", body: "Mensagem pela API" },
  },
  {
    call: "POST /api/messages/send",
    note: "multipart",
    as: "connection",
    multipart: { number: "{phone}", body: "Arquivo pela API", medias: "@png" },
  },
  // Contact lists and their items
  { call: "GET /contact-lists/", query: PAGE, keys: ["records", "hasMore"] },
  { call: "GET /contact-lists/list", query: { companyId: "{companyId}" } },
  { call: "GET /contact-lists/{contactListId}" },
  { call: "PUT /contact-lists/{contactListId}", body: { name: "Lista {uniq}" } },
  { call: "DELETE /contact-lists/{contactListId}" },
  { call: "POST /contact-lists", body: { name: "Lista {uniq}" }, status: 201 },
  { call: "POST /contact-lists/{contactListId}/upload", multipart: { file: "@xlsx" } },
  {
    call: "GET /contact-list-items",
    query: { ...PAGE, contactListId: "{contactListId}" },
    keys: ["contacts", "hasMore"],
  },
  { call: "GET /contact-list-items/{contactListItemId}" },
  {
    call: "PUT /contact-list-items/{contactListItemId}",
    body: { name: "Item {uniq}", number: "{phone}", email: "" },
  },
  { call: "DELETE /contact-list-items/{contactListItemId}" },
  {
    call: "POST /contact-list-items",
    body: { name: "Item {uniq}", number: "{phone}", email: "", companyId: "{companyId}", contactListId: "{contactListId}" },
    status: 201,
  },
  // Campaigns
  { call: "GET /campaigns/", query: PAGE, keys: ["records", "hasMore"] },
  { call: "GET /campaigns/{campaignId}" },
  {
    call: "PUT /campaigns/{campaignId}",
    body: {
      name: "Campanha {uniq}",
      message1: "Olá!",
      contactListId: "{contactListId}",
      whatsappId: "{whatsappId}",
      scheduledAt: "",
      confirmation: false,
    },
  },
  { call: "DELETE /campaigns/{campaignId}" },
  {
    call: "POST /campaigns",
    body: {
      name: "Campanha {uniq}",
      message1: "Olá!",
      contactListId: "{contactListId}",
      whatsappId: "{whatsappId}",
      scheduledAt: "",
      confirmation: false,
    },
    status: 201,
  },
  { call: "POST /campaigns/{runningCampaignId}/cancel" },
  { call: "POST /campaigns/{cancelledCampaignId}/restart" },
  { call: "POST /campaigns/{campaignId}/media-upload", multipart: { file: "@png" } },
  { call: "DELETE /campaigns/{campaignId}/media-upload" },
  { call: "GET /campaign-settings" },
  {
    call: "POST /campaign-settings",
    body: { settings: { messageInterval: 20, longerIntervalAfter: 20, greaterInterval: 60, variables: [] } },
  },
  // Announcements
  { call: "GET /announcements/", query: PAGE, keys: ["records", "hasMore"] },
  { call: "GET /announcements/{announcementId}", as: "super" },
  { call: "POST /announcements", as: "super", body: { title: "Manutenção", text: "Sábado às 22h", priority: 1, status: true }, status: 201 },
  {
    call: "PUT /announcements/{announcementId}",
    as: "super",
    body: { title: "Manutenção adiada", text: "Domingo às 22h", priority: 2, status: true },
  },
  { call: "DELETE /announcements/{announcementId}", as: "super" },
  { call: "POST /announcements/{announcementId}/media-upload", as: "super", multipart: { file: "@png" } },
  { call: "DELETE /announcements/{announcementId}/media-upload", as: "super" },
  // Internal chat
  { call: "GET /chats/", query: PAGE, keys: ["records", "hasMore"] },
  { call: "POST /chats", body: { users: [{ id: "{userId}" }], title: "Plantão" }, status: 201 },
  { call: "PUT /chats/{chatId}", body: { users: [{ id: "{userId}" }], title: "Plantão de sábado" } },
  { call: "DELETE /chats/{chatId}" },
  { call: "GET /chats/{chatId}/messages", query: { pageNumber: "1" }, keys: ["records", "hasMore"] },
  { call: "POST /chats/{chatId}/messages", body: { message: "Alguém cobre o turno?" }, status: 201 },
  { call: "POST /chats/{chatId}/read", body: { userId: "{adminId}" } },
];
