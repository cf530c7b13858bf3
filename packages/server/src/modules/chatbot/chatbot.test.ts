import { and, asc, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attendanceCycles, connectionQueues, connections, contacts, messages, queues, settings, tickets, userQueues } from "../../db/schema";
import type { ChannelAddress, InboundMessage } from "../../channels/types";
import { buildQueue, buildTenant, login, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";
import { pipelines } from "../messages/module";
import { CALLS_DISABLED_TEXT } from "../messages/inbound";
import { isOpen, localClock } from "../openingHours/hours";
import { MAX_RATING_ATTEMPTS, parseRating } from "./automatic";
import { automations } from "./module";
import { greetingFor, renderTemplate, templateVariables } from "./templates";
import { normalizeAnswer, RATING_INVALID_TEXT, RATING_SCALE_TEXT } from "./texts";

let t: TestApp;
let seq = 0;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const db = () => t.ctx.database.db;
const automation = () => automations.get(t.ctx)!;
const call = (s: Session, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: s.headers, ...(payload ? { payload } : {}) });

/** Monday 23 Nov 2026 at hh:mm in São Paulo (UTC−3, no DST). */
const monday = (hh: number, mm = 0) => new Date(Date.UTC(2026, 10, 23, hh + 3, mm));

interface DeskOptions {
  queues?: { name: string; greetingMessage?: string; outOfHoursMessage?: string; schedules?: (typeof queues.$inferInsert)["schedules"] }[];
  connection?: Partial<typeof connections.$inferInsert>;
  settings?: Record<string, string>;
}

async function desk(options: DeskOptions = {}) {
  const tenant = await buildTenant(t.app);
  const companyId = tenant.company.id;
  const [connection] = await db()
    .insert(connections)
    .values({
      companyId,
      name: `Conexão ${++seq}`,
      isDefault: true,
      status: "CONNECTED",
      // The queue menu's greeting; a connection without queues greets nobody unless a test says so.
      greetingMessage: options.queues?.length ? "{{ms}}, {{name}}! Bem-vindo à Loja." : "",
      ...options.connection,
    })
    .returning();
  const qs = [];
  for (const [i, q] of (options.queues ?? []).entries()) {
    const row = await buildQueue(t.ctx, companyId, { greetingMessage: "", orderQueue: i, ...q });
    qs.push(row);
    await db().insert(connectionQueues).values({ companyId, connectionId: connection!.id, queueId: row.id });
  }
  for (const [key, value] of Object.entries(options.settings ?? {}))
    await db()
      .update(settings)
      .set({ value })
      .where(and(eq(settings.companyId, companyId), eq(settings.key, key)));
  return { ...tenant, connection: connection!, queues: qs, source: { companyId, connectionId: connection!.id } };
}
type Desk = Awaited<ReturnType<typeof desk>>;

const customer = (name = "Ana Souza"): ChannelAddress => ({
  id: `55119${String(80_000_000 + ++seq * 37).padStart(8, "0")}`,
  kind: "phone",
  pushName: name,
});
const inbound = (chat: ChannelAddress, body: string, overrides: Partial<InboundMessage> = {}): InboundMessage => ({
  providerMessageId: `WA-${++seq}-${Date.now()}`,
  chat,
  fromMe: false,
  kind: "chat",
  body,
  timestamp: new Date(),
  ...overrides,
});

/** The customer writes; resolves once the bot and automatic messages are done. */
async function say(d: Desk, chat: ChannelAddress, body: string, overrides: Partial<InboundMessage> = {}) {
  await pipelines.get(t.ctx)!.handle(d.source, { type: "message", message: inbound(chat, body, overrides) });
  await automation().idle();
}

async function contactOf(d: Desk, chat: ChannelAddress) {
  const [c] = await db()
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, d.company.id), eq(contacts.number, chat.id)));
  return c!;
}

/** Everything the company sent to the customer, oldest first. */
async function sent(d: Desk, chat: ChannelAddress): Promise<string[]> {
  const c = await contactOf(d, chat);
  const rows = await db()
    .select({ body: messages.body })
    .from(messages)
    .where(and(eq(messages.companyId, d.company.id), eq(messages.contactId, c.id), eq(messages.fromMe, true)))
    .orderBy(asc(messages.id));
  return rows.map((r) => r.body);
}

/** Collects only the replies since the last call. */
function transcript(d: Desk, chat: ChannelAddress) {
  let seen = 0;
  return async (): Promise<string[]> => {
    const all = await sent(d, chat);
    const fresh = all.slice(seen);
    seen = all.length;
    return fresh;
  };
}

async function ticketsOf(d: Desk, chat: ChannelAddress) {
  const c = await contactOf(d, chat);
  return db().select().from(tickets).where(eq(tickets.contactId, c.id)).orderBy(asc(tickets.id));
}
const lastTicket = async (d: Desk, chat: ChannelAddress) => (await ticketsOf(d, chat)).at(-1)!;

async function addOption(s: Session, queueId: number, title: string, message = "", parentId?: number) {
  const res = await call(s, "POST", "/queue-options", { queueId, title, message, ...(parentId && { parentId }) });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: number; option: string };
}

describe("template variables", () => {
  it("renders the reference's set and Portuguese aliases in both syntaxes, leaving unknown names", () => {
    const vars = templateVariables({
      contactName: "Ana Souza",
      contactNumber: "5511999990000",
      userName: "Bia",
      queueName: "Vendas",
      ticketId: 42,
      at: monday(9, 5),
      timeZone: "America/Sao_Paulo",
    });
    expect(renderTemplate("{{ms}} {{name}} / {nome} / {{firstName}} {primeiroNome}", vars)).toBe("Bom dia Ana Souza / Ana Souza / Ana Ana");
    expect(renderTemplate("{saudação} {saudacao} {{gretting}}", vars)).toBe("Bom dia Bom dia Bom dia");
    expect(renderTemplate("{{protocol}} {protocolo} {{hora}} {data}", vars)).toBe("20261123090500 20261123090500 09:05:00 23/11/2026");
    expect(renderTemplate("{atendente} {{fila}} {numero} {{ticket}} {desconhecida} {{ nome }}", vars)).toBe(
      "Bia Vendas 5511999990000 42 {desconhecida} Ana Souza",
    );
    const tricky = templateVariables({ contactName: "{nome}", at: monday(9), timeZone: "America/Sao_Paulo" });
    expect(renderTemplate("Oi {{name}}", tricky)).toBe("Oi {nome}");
  });

  it("greets by the company clock", () => {
    expect([3, 6, 11, 12, 17, 18, 23, 0].map(greetingFor)).toEqual([
      "Boa madrugada",
      "Bom dia",
      "Bom dia",
      "Boa tarde",
      "Boa tarde",
      "Boa noite",
      "Boa noite",
      "Boa madrugada",
    ]);
    const vars = templateVariables({ contactName: "X", at: monday(20), timeZone: "America/Sao_Paulo" });
    expect(vars.ms).toBe("Boa noite");
  });

  it("reads answers and ratings leniently", () => {
    expect(["1", " 2 ", "*3*", "[ 4 ]", "5.", "#", "0", "007"].map(normalizeAnswer)).toEqual(["1", "2", "3", "4", "5", "#", "0", "7"]);
    expect(normalizeAnswer("quero vendas")).toBe("quero vendas");
    expect(["1", " 2", "*3*", "3 - muito satisfeito", "2.", "4", "10", "ótimo", ""].map(parseRating)).toEqual([
      1,
      2,
      3,
      3,
      2,
      null,
      null,
      null,
      null,
    ]);
  });
});

describe("opening hours", () => {
  const week = [
    { weekdayEn: "monday", startTime: "09:00", endTime: "18:00" },
    { weekdayEn: "tuesday", startTime: "22:00", endTime: "06:00" },
    { weekdayEn: "sunday", startTime: "00:00", endTime: "00:00" },
    { weekdayEn: "wednesday", startTime: "", endTime: "" },
  ];
  it("uses the company's time zone, start inclusive, end exclusive, overnight spans, closed and open days", () => {
    expect(localClock(monday(9), "America/Sao_Paulo")).toMatchObject({ weekday: "monday", minutes: 540 });
    expect(isOpen(week, monday(8, 59), "America/Sao_Paulo")).toBe(false);
    expect(isOpen(week, monday(9), "America/Sao_Paulo")).toBe(true);
    expect(isOpen(week, monday(17, 59), "America/Sao_Paulo")).toBe(true);
    expect(isOpen(week, monday(18), "America/Sao_Paulo")).toBe(false);
    // 20:00 in São Paulo is 09:00 next day in Tokyo... a Tuesday 09:00 outside the overnight span there.
    expect(isOpen(week, monday(20), "Asia/Tokyo")).toBe(false);
    const tuesday = (hh: number) => new Date(Date.UTC(2026, 10, 24, hh + 3));
    expect(isOpen(week, tuesday(23), "America/Sao_Paulo")).toBe(true);
    expect(isOpen(week, tuesday(5), "America/Sao_Paulo")).toBe(true);
    expect(isOpen(week, tuesday(12), "America/Sao_Paulo")).toBe(false);
    expect(isOpen(week, new Date(Date.UTC(2026, 10, 25, 15)), "America/Sao_Paulo")).toBe(true); // wednesday, empty = open
    expect(isOpen(week, new Date(Date.UTC(2026, 10, 22, 15)), "America/Sao_Paulo")).toBe(false); // sunday 00:00–00:00
    expect(isOpen(week, new Date(Date.UTC(2026, 10, 27, 15)), "America/Sao_Paulo")).toBe(true); // friday, not listed
  });
});

describe("the bot: queue menu and option trees", () => {
  it("walks menu → queue → option tree → back → main menu → invalid answer → retry → a queue without options", async () => {
    const d = await desk({
      queues: [
        { name: "Vendas", greetingMessage: "Vendas: como podemos ajudar, {nome}?" },
        { name: "Suporte", greetingMessage: "Suporte aqui, {{firstName}}. Um atendente já vem." },
      ],
    });
    automation().clock = () => monday(10);
    const [vendas, suporte] = d.queues;
    const planos = await addOption(d.adminSession, vendas!.id, "Planos", "Qual plano?");
    await addOption(d.adminSession, vendas!.id, "Falar com vendedor", "Aguarde um vendedor.");
    await addOption(d.adminSession, vendas!.id, "Básico", "Plano básico: R$ 10", planos.id);
    await addOption(d.adminSession, vendas!.id, "Premium", "Plano premium: R$ 50", planos.id);
    const chat = customer("Ana Souza");
    const replies = transcript(d, chat);
    const mainMenu = "Bom dia, Ana Souza! Bem-vindo à Loja.\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte";
    const vendasMenu = "Vendas: como podemos ajudar, Ana Souza?\n\n*[ 1 ]* - Planos\n*[ 2 ]* - Falar com vendedor\n*[ # ]* - Menu inicial";
    const planosMenu = "Qual plano?\n\n*[ 1 ]* - Básico\n*[ 2 ]* - Premium\n*[ 0 ]* - Menu anterior\n*[ # ]* - Menu inicial";
    const invalid = "Opção inválida, por favor, escolha uma opção válida.";

    await say(d, chat, "Oi");
    expect(await replies()).toEqual([mainMenu]);
    let ticket = await lastTicket(d, chat);
    expect(ticket).toMatchObject({ status: "pending", chatbot: true, queueId: null });
    const [cycle] = await db().select().from(attendanceCycles).where(eq(attendanceCycles.ticketId, ticket.id));
    expect(cycle!.chatbotAt).toBeInstanceOf(Date);
    // The ticket row shows the bot flag.
    expect((await call(d.adminSession, "GET", `/tickets/${ticket.id}`)).json()).toMatchObject({ chatbot: true });

    await say(d, chat, "9");
    expect(await replies()).toEqual([`${invalid}\n\n${mainMenu}`]);
    await say(d, chat, "1");
    expect(await replies()).toEqual([vendasMenu]);
    expect(await lastTicket(d, chat)).toMatchObject({ queueId: vendas!.id, chatbot: true, queueOptionId: null });
    await say(d, chat, "1");
    expect(await replies()).toEqual([planosMenu]);
    expect(await lastTicket(d, chat)).toMatchObject({ queueOptionId: planos.id });
    await say(d, chat, "7");
    expect(await replies()).toEqual([`${invalid}\n\n${planosMenu}`]);
    await say(d, chat, "0");
    expect(await replies()).toEqual([vendasMenu]);
    expect(await lastTicket(d, chat)).toMatchObject({ queueOptionId: null, queueId: vendas!.id });
    await say(d, chat, "#");
    expect(await replies()).toEqual([mainMenu]);
    expect(await lastTicket(d, chat)).toMatchObject({ queueId: null, chatbot: true });
    await say(d, chat, "quero suporte");
    expect(await replies()).toEqual([`${invalid}\n\n${mainMenu}`]);
    await say(d, chat, "2");
    expect(await replies()).toEqual(["Suporte aqui, Ana. Um atendente já vem."]);
    ticket = await lastTicket(d, chat);
    expect(ticket).toMatchObject({ queueId: suporte!.id, chatbot: false, status: "pending", userId: null });
    // Out of the bot: further messages wait for an attendant, without replies; still one ticket.
    await say(d, chat, "alô?");
    expect(await replies()).toEqual([]);
    expect(await ticketsOf(d, chat)).toHaveLength(1);
  });

  it("a leaf ends the bot in its queue, where the queue's attendant sees the ticket", async () => {
    const d = await desk({ queues: [{ name: "Comercial" }, { name: "Financeiro", greetingMessage: "Financeiro: escolha" }] });
    automation().clock = () => monday(15);
    const fin = d.queues[1]!;
    const boletos = await addOption(d.adminSession, fin.id, "Boletos", "Sobre boletos:");
    await addOption(d.adminSession, fin.id, "Segunda via", "Um atendente enviará a segunda via, {{name}}.", boletos.id);
    await db().insert(userQueues).values({ companyId: d.company.id, userId: d.user.id, queueId: fin.id });
    const userSession = await login(t.app, d.user.email);
    const chat = customer("Caio Lima");
    for (const answer of ["Olá", "2", "1", "1"]) await say(d, chat, answer);
    expect((await sent(d, chat)).at(-1)).toBe("Um atendente enviará a segunda via, Caio Lima.");
    const ticket = await lastTicket(d, chat);
    expect(ticket).toMatchObject({ queueId: fin.id, chatbot: false, status: "pending" });
    expect(ticket.queueOptionId).not.toBeNull();
    const pending = (await call(userSession, "GET", "/tickets?status=pending")).json();
    expect(pending.tickets.map((x: { id: number }) => x.id)).toContain(ticket.id);
    // Once accepted, the bot stays quiet.
    expect((await call(userSession, "PUT", `/tickets/${ticket.id}`, { status: "open" })).statusCode).toBe(200);
    const before = (await sent(d, chat)).length;
    await say(d, chat, "#");
    expect(await sent(d, chat)).toHaveLength(before);
  });

  it("one queue: the ticket goes straight to it with its option menu (no main-menu key) or its greeting", async () => {
    const withOptions = await desk({ queues: [{ name: "Única", greetingMessage: "Bem-vindo à fila única" }] });
    await addOption(withOptions.adminSession, withOptions.queues[0]!.id, "Pedidos", "Pedidos:");
    const ana = customer();
    await say(withOptions, ana, "Oi");
    expect(await sent(withOptions, ana)).toEqual(["Bem-vindo à fila única\n\n*[ 1 ]* - Pedidos"]);
    expect(await lastTicket(withOptions, ana)).toMatchObject({ queueId: withOptions.queues[0]!.id, chatbot: true });
    // "#" with a single queue re-shows the queue's menu.
    await say(withOptions, ana, "#");
    expect((await sent(withOptions, ana)).at(-1)).toBe("Bem-vindo à fila única\n\n*[ 1 ]* - Pedidos");

    const plain = await desk({ queues: [{ name: "Atendimento", greetingMessage: "Olá {nome}, aguarde." }] });
    const bia = customer("Bia");
    await say(plain, bia, "Oi");
    await say(plain, bia, "Tem alguém?");
    expect(await sent(plain, bia)).toEqual(["Olá Bia, aguarde."]);
    expect(await lastTicket(plain, bia)).toMatchObject({ queueId: plain.queues[0]!.id, chatbot: false });
  });

  it("a connection without queues sends its greeting once per new ticket", async () => {
    const d = await desk({ connection: { greetingMessage: "Olá {{name}}, já te respondemos." } });
    const chat = customer("Davi");
    await say(d, chat, "Oi");
    await say(d, chat, "?");
    expect(await sent(d, chat)).toEqual(["Olá Davi, já te respondemos."]);
    expect(await lastTicket(d, chat)).toMatchObject({ chatbot: false, queueId: null });
  });

  it("never talks in groups", async () => {
    const d = await desk({ queues: [{ name: "A" }, { name: "B" }], settings: { CheckMsgIsGroup: "disabled" } });
    const group: ChannelAddress = { id: `1203630${++seq}@g.us`, kind: "group", pushName: "Grupo" };
    await say(d, group, "Oi", { participant: customer("Membro") });
    const [c] = await db()
      .select()
      .from(contacts)
      .where(and(eq(contacts.companyId, d.company.id), eq(contacts.isGroup, true)));
    const [ticket] = await db().select().from(tickets).where(eq(tickets.contactId, c!.id));
    expect(ticket).toMatchObject({ isGroup: true, chatbot: false });
    const out = await db()
      .select()
      .from(messages)
      .where(and(eq(messages.ticketId, ticket!.id), eq(messages.fromMe, true)));
    expect(out).toEqual([]);
  });
});

describe("out of hours", () => {
  it("company mode: the connection's message once per attendance cycle, no menu; in hours the menu", async () => {
    const d = await desk({
      queues: [{ name: "Vendas" }, { name: "Suporte" }],
      connection: { outOfHoursMessage: "Estamos fechados, {{name}}. Voltamos às 9h." },
      settings: { scheduleType: "company" },
    });
    await call(d.adminSession, "PUT", `/companies/${d.company.id}/schedules`, {
      schedules: [{ weekdayEn: "monday", startTime: "09:00", endTime: "18:00" }],
    });
    automation().clock = () => monday(20);
    const chat = customer("Eva");
    await say(d, chat, "Oi");
    await say(d, chat, "Tem alguém?");
    await say(d, chat, "1");
    expect(await sent(d, chat)).toEqual(["Estamos fechados, Eva. Voltamos às 9h."]);
    const first = await lastTicket(d, chat);
    expect(first).toMatchObject({ queueId: null, chatbot: false });
    const [cycle] = await db().select().from(attendanceCycles).where(eq(attendanceCycles.ticketId, first.id));
    expect(cycle!.outOfHoursSentAt).toEqual(monday(20));

    // A new attendance cycle (the ticket was resolved) gets the message again.
    await call(d.adminSession, "PUT", `/tickets/${first.id}`, { status: "closed" });
    await automation().idle();
    await say(d, chat, "Oi de novo");
    expect((await sent(d, chat)).filter((b) => b.startsWith("Estamos fechados"))).toHaveLength(2);

    // In hours, the same conversation gets the menu.
    automation().clock = () => monday(10);
    await say(d, chat, "Bom dia");
    expect((await sent(d, chat)).at(-1)).toBe("Bom dia, Eva! Bem-vindo à Loja.\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte");
  });

  it("queue mode: the queue's message once per cycle; the ticket waits in the queue", async () => {
    const hours = [{ weekday: "Segunda-feira", weekdayEn: "monday", startTime: "09:00", endTime: "18:00" }];
    const d = await desk({
      queues: [
        { name: "Vendas", greetingMessage: "Vendas!", outOfHoursMessage: "Vendas fechado agora, {{name}}.", schedules: hours },
        { name: "Suporte 24h", greetingMessage: "Suporte 24h!", schedules: [] },
      ],
      settings: { scheduleType: "queue" },
    });
    await addOption(d.adminSession, d.queues[0]!.id, "Orçamento", "Orçamento:");
    automation().clock = () => monday(19);
    const chat = customer("Fábio");
    await say(d, chat, "Oi");
    await say(d, chat, "1");
    await say(d, chat, "1");
    await say(d, chat, "alguém?");
    const menu = "Boa noite, Fábio! Bem-vindo à Loja.\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte 24h";
    expect(await sent(d, chat)).toEqual([menu, "Vendas fechado agora, Fábio."]);
    expect(await lastTicket(d, chat)).toMatchObject({ queueId: d.queues[0]!.id, chatbot: false, status: "pending" });

    // A queue open around the clock answers normally at the same hour.
    const other = customer("Gil");
    await say(d, other, "Oi");
    await say(d, other, "2");
    expect((await sent(d, other)).at(-1)).toBe("Suporte 24h!");

    // A ticket already in a queue that closes meanwhile is told once.
    const early = customer("Hugo");
    automation().clock = () => monday(17, 50);
    await say(d, early, "Oi");
    await say(d, early, "1");
    expect((await sent(d, early)).at(-1)).toBe("Vendas!\n\n*[ 1 ]* - Orçamento\n*[ # ]* - Menu inicial");
    automation().clock = () => monday(18, 5);
    await say(d, early, "1");
    await say(d, early, "e aí?");
    expect((await sent(d, early)).filter((b) => b.startsWith("Vendas fechado"))).toEqual(["Vendas fechado agora, Hugo."]);
    expect(await lastTicket(d, early)).toMatchObject({ chatbot: false, queueId: d.queues[0]!.id });
  });
});

describe("automatic messages around the ticket", () => {
  it("greeting on accept when sendGreetingAccepted is enabled (never for groups); nothing when disabled", async () => {
    const d = await desk({ settings: { sendGreetingAccepted: "enabled" } });
    automation().clock = () => monday(14);
    const chat = customer("Iara Reis");
    await say(d, chat, "Oi");
    const ticket = await lastTicket(d, chat);
    await call(d.adminSession, "PUT", `/tickets/${ticket.id}`, { status: "open" });
    await automation().idle();
    expect(await sent(d, chat)).toEqual([
      `*Mensagem Automática:*\nBoa tarde *Iara Reis*, meu nome é *${d.admin.name}* e agora vou prosseguir com seu atendimento!`,
    ]);

    const off = await desk();
    const other = customer();
    await say(off, other, "Oi");
    await call(off.adminSession, "PUT", `/tickets/${(await lastTicket(off, other)).id}`, { status: "open" });
    await automation().idle();
    expect(await sent(off, other)).toEqual([]);
  });

  it("transfer notices when sendMsgTransfTicket is enabled", async () => {
    const d = await desk({ queues: [{ name: "Vendas" }, { name: "Suporte" }], settings: { sendMsgTransfTicket: "enabled" } });
    const [vendas, suporte] = d.queues;
    await db().insert(userQueues).values({ companyId: d.company.id, userId: d.user.id, queueId: vendas!.id });
    const chat = customer("João");
    await say(d, chat, "Oi");
    await say(d, chat, "1");
    const ticket = await lastTicket(d, chat);
    await call(d.adminSession, "PUT", `/tickets/${ticket.id}`, { status: "open" });
    const replies = transcript(d, chat);
    await replies();
    await call(d.adminSession, "PUT", `/tickets/${ticket.id}`, { queueId: suporte!.id });
    await automation().idle();
    expect(await replies()).toEqual(["*Mensagem automática*:\nVocê foi transferido para o departamento *Suporte*\naguarde, já vamos te atender!"]);
    await call(d.adminSession, "PUT", `/tickets/${ticket.id}`, { queueId: vendas!.id, userId: d.user.id });
    await automation().idle();
    expect(await replies()).toEqual([
      `*Mensagem automática*:\nVocê foi transferido para o departamento *Vendas* e contará com a presença de *${d.user.name}*\naguarde, já vamos te atender!`,
    ]);
  });

  it("resolve sends the completion message (userRating disabled)", async () => {
    const d = await desk({ connection: { complationMessage: "Atendimento encerrado. Protocolo {{protocol}}." } });
    automation().clock = () => monday(11, 30);
    const chat = customer();
    await say(d, chat, "Oi");
    const ticket = await lastTicket(d, chat);
    await call(d.adminSession, "PUT", `/tickets/${ticket.id}`, { status: "open" });
    await call(d.adminSession, "PUT", `/tickets/${ticket.id}`, { status: "closed" });
    await automation().idle();
    expect(await sent(d, chat)).toEqual(["Atendimento encerrado. Protocolo 20261123113000."]);
  });

  it("rating: prompt 1–3, invalid answers asked again, the answer recorded on the cycle, then the completion; no new ticket", async () => {
    const d = await desk({
      connection: { ratingMessage: "Como foi o atendimento, {{firstName}}?", complationMessage: "Obrigado, até logo!" },
      settings: { userRating: "enabled" },
    });
    automation().clock = () => monday(16);
    const chat = customer("Lia Campos");
    await say(d, chat, "Oi");
    const ticket = await lastTicket(d, chat);
    await call(d.adminSession, "PUT", `/tickets/${ticket.id}`, { status: "open" });
    await call(d.adminSession, "PUT", `/tickets/${ticket.id}`, { status: "closed" });
    await automation().idle();
    const prompt = `Como foi o atendimento, Lia?\n\n${RATING_SCALE_TEXT}`;
    expect(RATING_SCALE_TEXT).toContain("1 a 3");
    expect(await sent(d, chat)).toEqual([prompt]);

    await say(d, chat, "foi ótimo");
    await say(d, chat, "3");
    expect(await sent(d, chat)).toEqual([prompt, `${RATING_INVALID_TEXT}\n\n${RATING_SCALE_TEXT}`, "Obrigado, até logo!"]);
    const all = await ticketsOf(d, chat);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ status: "closed", unreadMessages: 0 });
    const [cycle] = await db().select().from(attendanceCycles).where(eq(attendanceCycles.ticketId, ticket.id)).orderBy(desc(attendanceCycles.id));
    expect(cycle).toMatchObject({ rating: 3, rated: true, userId: d.admin.id, ratingAttempts: 1 });
    expect(cycle!.ratingAt).toEqual(monday(16));
    // The answers are kept in the closed ticket's history.
    const inbound = await db()
      .select({ body: messages.body })
      .from(messages)
      .where(and(eq(messages.ticketId, ticket.id), eq(messages.fromMe, false)))
      .orderBy(asc(messages.id));
    expect(inbound.map((m) => m.body)).toEqual(["Oi", "foi ótimo", "3"]);

    // After the rating, the next message is a new conversation.
    await say(d, chat, "Tenho outra dúvida");
    expect(await ticketsOf(d, chat)).toHaveLength(2);
    expect((await lastTicket(d, chat)).status).toBe("pending");
  });

  it("rating: gives up after a few invalid answers, and the last one opens a new conversation", async () => {
    const d = await desk({ connection: { ratingMessage: "Avalie-nos" }, settings: { userRating: "enabled" } });
    const chat = customer();
    await say(d, chat, "Oi");
    const ticket = await lastTicket(d, chat);
    await call(d.adminSession, "PUT", `/tickets/${ticket.id}`, { status: "open" });
    await call(d.adminSession, "PUT", `/tickets/${ticket.id}`, { status: "closed" });
    await automation().idle();
    for (let i = 1; i < MAX_RATING_ATTEMPTS; i++) {
      await say(d, chat, `não sei ${i}`);
      expect(await ticketsOf(d, chat)).toHaveLength(1);
    }
    await say(d, chat, "Preciso de ajuda com outra coisa");
    const all = await ticketsOf(d, chat);
    expect(all).toHaveLength(2);
    expect(all[1]).toMatchObject({ status: "pending" });
    const [cycle] = await db().select().from(attendanceCycles).where(eq(attendanceCycles.ticketId, ticket.id));
    expect(cycle).toMatchObject({ rated: false, rating: null, ratingAttempts: MAX_RATING_ATTEMPTS });
    expect((await sent(d, chat)).filter((b) => b.startsWith(RATING_INVALID_TEXT))).toHaveLength(MAX_RATING_ATTEMPTS - 1);
    // A late "3" is an ordinary message of the new ticket now.
    await say(d, chat, "3");
    expect(await ticketsOf(d, chat)).toHaveLength(2);
  });

  it("without ratingMessage (or with userRating disabled) resolve goes straight to the completion", async () => {
    const d = await desk({ connection: { complationMessage: "Tchau!" }, settings: { userRating: "enabled" } });
    const chat = customer();
    await say(d, chat, "Oi");
    const ticket = await lastTicket(d, chat);
    await call(d.adminSession, "PUT", `/tickets/${ticket.id}`, { status: "closed" });
    await automation().idle();
    expect(await sent(d, chat)).toEqual(["Tchau!"]);
  });
});

describe("calls and groups settings (inbound pipeline)", () => {
  it("with `call` disabled a call is logged and answered; enabled it is only logged", async () => {
    for (const [value, answered] of [
      ["disabled", true],
      ["enabled", false],
    ] as const) {
      const d = await desk({ settings: { call: value } });
      const chat = customer();
      await pipelines.get(t.ctx)!.handle(d.source, { type: "call", callId: `call-${++seq}`, from: chat, isVideo: false, status: "offer" });
      await automation().idle();
      const ticket = await lastTicket(d, chat);
      const rows = await db().select().from(messages).where(eq(messages.ticketId, ticket.id)).orderBy(asc(messages.id));
      expect(rows[0]).toMatchObject({ mediaType: "call_log", fromMe: false });
      expect(rows.filter((m) => m.fromMe).map((m) => m.body)).toEqual(answered ? [CALLS_DISABLED_TEXT] : []);
    }
  });

  it("with CheckMsgIsGroup enabled group messages are ignored entirely", async () => {
    const d = await desk({ settings: { CheckMsgIsGroup: "enabled" } });
    const group: ChannelAddress = { id: `1203631${++seq}@g.us`, kind: "group", pushName: "Grupo" };
    await say(d, group, "Oi", { participant: customer("Membro") });
    const rows = await db().select().from(tickets).where(eq(tickets.companyId, d.company.id));
    expect(rows).toEqual([]);
  });
});

describe("two-company isolation of the bot", () => {
  it("uses only the receiving company's queues, options and schedules", async () => {
    const a = await desk({ queues: [{ name: "A-Vendas" }, { name: "A-Suporte" }] });
    const b = await desk({ queues: [{ name: "B-Vendas" }, { name: "B-Suporte" }, { name: "B-RH" }] });
    await addOption(b.adminSession, b.queues[0]!.id, "Opção de B", "Só B");
    automation().clock = () => monday(10);
    const chat = customer("Nina");
    await say(a, chat, "Oi");
    await say(a, chat, "1");
    const texts = await sent(a, chat);
    expect(texts.join("\n")).not.toMatch(/B-|Opção de B/);
    expect(await lastTicket(a, chat)).toMatchObject({ queueId: a.queues[0]!.id });
  });
});

describe("through the simulator (the customer's phone)", () => {
  it("a customer navigates a two-level option tree and lands in the right queue", async () => {
    const tenant = await buildTenant(t.app);
    const companyId = tenant.company.id;
    const [connection] = await db()
      .insert(connections)
      .values({ companyId, name: `Simulador ${++seq}`, channel: "simulator", status: "DISCONNECTED", greetingMessage: "Olá {{firstName}}! Escolha:" })
      .returning();
    const comercial = await buildQueue(t.ctx, companyId, { name: "Comercial", orderQueue: 0 });
    const suporte = await buildQueue(t.ctx, companyId, { name: "Suporte", orderQueue: 1, greetingMessage: "Suporte técnico:" });
    await db()
      .insert(connectionQueues)
      .values([
        { companyId, connectionId: connection!.id, queueId: comercial.id },
        { companyId, connectionId: connection!.id, queueId: suporte.id },
      ]);
    const internet = await addOption(tenant.adminSession, suporte.id, "Internet", "Problema com a internet:");
    await addOption(tenant.adminSession, suporte.id, "Sem conexão", "Reinicie o roteador; um técnico vai falar com você.", internet.id);
    await addOption(tenant.adminSession, suporte.id, "Lentidão", "Vamos medir sua velocidade.", internet.id);

    // Pair the simulated phone like an admin scanning the QR code.
    await t.ctx.channels.command(companyId, connection!.id, "start");
    const [shown] = await db().select({ qrcode: connections.qrcode }).from(connections).where(eq(connections.id, connection!.id));
    const scan = await call(tenant.adminSession, "POST", `/simulator/${connection!.id}/scan`, { code: shown!.qrcode });
    expect(scan.json()).toEqual({ status: "CONNECTED" });

    automation().clock = () => monday(10);
    const number = "5511987650001";
    const phone = async (body: string) => {
      const res = await call(tenant.adminSession, "POST", `/simulator/${connection!.id}/phones/${number}/messages`, {
        type: "text",
        body,
        name: "Rita Alves",
      });
      expect(res.statusCode).toBe(201);
      await automation().idle();
    };
    const received = async () =>
      (
        (await call(tenant.adminSession, "GET", `/simulator/${connection!.id}/phones/${number}/messages`)).json() as {
          direction: string;
          body: string;
        }[]
      )
        .filter((m) => m.direction === "in")
        .map((m) => m.body);

    await phone("Oi");
    await phone("2");
    await phone("1");
    await phone("5");
    await phone("0");
    await phone("1");
    await phone("1");
    expect(await received()).toEqual([
      "Olá Rita! Escolha:\n\n*[ 1 ]* - Comercial\n*[ 2 ]* - Suporte",
      "Suporte técnico:\n\n*[ 1 ]* - Internet\n*[ # ]* - Menu inicial",
      "Problema com a internet:\n\n*[ 1 ]* - Sem conexão\n*[ 2 ]* - Lentidão\n*[ 0 ]* - Menu anterior\n*[ # ]* - Menu inicial",
      "Opção inválida, por favor, escolha uma opção válida.\n\nProblema com a internet:\n\n*[ 1 ]* - Sem conexão\n*[ 2 ]* - Lentidão\n*[ 0 ]* - Menu anterior\n*[ # ]* - Menu inicial",
      "Suporte técnico:\n\n*[ 1 ]* - Internet\n*[ # ]* - Menu inicial",
      "Problema com a internet:\n\n*[ 1 ]* - Sem conexão\n*[ 2 ]* - Lentidão\n*[ 0 ]* - Menu anterior\n*[ # ]* - Menu inicial",
      "Reinicie o roteador; um técnico vai falar com você.",
    ]);
    const pending = (await call(tenant.adminSession, "GET", "/tickets?status=pending")).json().tickets;
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ queueId: suporte.id, chatbot: false, contact: { name: "Rita Alves" } });
    // Every bot message was delivered by the provider.
    const stored = await db()
      .select({ status: messages.status })
      .from(messages)
      .where(and(eq(messages.ticketId, pending[0].id), eq(messages.fromMe, true)));
    expect(stored.every((m) => m.status === "sent")).toBe(true);
    await t.ctx.channels.command(companyId, connection!.id, "stop");
  });
});
