import { and, asc, eq } from "drizzle-orm";
import type { ReportLanguage } from "@balcao/shared";
import type { Db } from "../../db/client";
import { attendanceCycles, companies, connections, contacts, messages, queues, tickets, users } from "../../db/schema";
import { AppError, notFound } from "../../http/errors";
import type { Actor } from "../auth/service";
import { canSeeTicket } from "../tickets/policy";

/**
 * GET /tickets/:id/transcript: the conversation as a printable HTML page, with the attendance timeline
 * (queued, bot, started, finished, rating of every cycle) merged into the messages by time. Scoped and
 * visibility-checked exactly like GET /tickets/:id (another company's ticket is a 404 like a missing one).
 */

const TEXTS = {
  pt: {
    title: "Conversa do atendimento",
    ticket: "Atendimento",
    contact: "Contato",
    number: "Número",
    connection: "Conexão",
    queue: "Fila",
    noQueue: "SEM FILA",
    attendant: "Atendente",
    status: "Situação",
    statuses: { pending: "Aguardando", open: "Em atendimento", closed: "Finalizado" },
    exported: "Exportado em",
    messages: "Mensagens",
    empty: "Nenhuma mensagem.",
    queued: "Entrou na fila",
    chatbot: "Atendido pelo robô",
    started: "Atendimento iniciado",
    finished: "Atendimento finalizado",
    rated: "Avaliação",
    by: "por",
    customer: "Cliente",
    us: "Empresa",
    deleted: "Essa mensagem foi apagada pelo contato",
    media: {
      image: "Imagem",
      audio: "Áudio",
      video: "Vídeo",
      document: "Arquivo",
      location: "Localização",
      vcard: "Contato",
      call_log: "Chamada de voz/vídeo perdida",
    },
    print: "Use Imprimir (Ctrl+P) do navegador para salvar em PDF.",
  },
  en: {
    title: "Ticket transcript",
    ticket: "Ticket",
    contact: "Contact",
    number: "Number",
    connection: "Connection",
    queue: "Queue",
    noQueue: "NO QUEUE",
    attendant: "Attendant",
    status: "Status",
    statuses: { pending: "Waiting", open: "In progress", closed: "Closed" },
    exported: "Exported on",
    messages: "Messages",
    empty: "No messages.",
    queued: "Entered the queue",
    chatbot: "Served by the bot",
    started: "Attendance started",
    finished: "Attendance finished",
    rated: "Rating",
    by: "by",
    customer: "Customer",
    us: "Company",
    deleted: "This message was deleted by the contact",
    media: {
      image: "Image",
      audio: "Audio",
      video: "Video",
      document: "File",
      location: "Location",
      vcard: "Contact",
      call_log: "Missed voice/video call",
    },
    print: "Use the browser's Print (Ctrl+P) to save as PDF.",
  },
  es: {
    title: "Transcripción de la atención",
    ticket: "Atención",
    contact: "Contacto",
    number: "Número",
    connection: "Conexión",
    queue: "Cola",
    noQueue: "SIN COLA",
    attendant: "Agente",
    status: "Estado",
    statuses: { pending: "En espera", open: "En atención", closed: "Finalizado" },
    exported: "Exportado el",
    messages: "Mensajes",
    empty: "Ningún mensaje.",
    queued: "Entró en la cola",
    chatbot: "Atendido por el bot",
    started: "Atención iniciada",
    finished: "Atención finalizada",
    rated: "Calificación",
    by: "por",
    customer: "Cliente",
    us: "Empresa",
    deleted: "Este mensaje fue eliminado por el contacto",
    media: {
      image: "Imagen",
      audio: "Audio",
      video: "Video",
      document: "Archivo",
      location: "Ubicación",
      vcard: "Contacto",
      call_log: "Llamada de voz/video perdida",
    },
    print: "Use Imprimir (Ctrl+P) del navegador para guardar en PDF.",
  },
} as const;

const LOCALES: Record<ReportLanguage, string> = { pt: "pt-BR", en: "en-US", es: "es-ES" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

type Entry =
  | { at: Date; kind: "message"; fromMe: boolean; body: string; mediaType: string; mediaName: string | null; isDeleted: boolean; id: number }
  | { at: Date; kind: "event"; text: string; order: number };

export async function buildTranscript(db: Db, actor: Actor, ticketId: number, lang: ReportLanguage, now = new Date()): Promise<string> {
  const [row] = await db
    .select({
      ticket: tickets,
      contactName: contacts.name,
      contactNumber: contacts.number,
      connectionName: connections.name,
      queueName: queues.name,
      userName: users.name,
      timeZone: companies.timeZone,
    })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .innerJoin(companies, eq(companies.id, tickets.companyId))
    .leftJoin(connections, eq(connections.id, tickets.connectionId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .leftJoin(users, eq(users.id, tickets.userId))
    .where(and(eq(tickets.id, ticketId), eq(tickets.companyId, actor.companyId)))
    .limit(1);
  if (!row) throw notFound("ERR_NO_TICKET_FOUND");
  if (!canSeeTicket(actor, row.ticket)) throw new AppError("ERR_ACCESS_DENIED", 403);

  const [cycleRows, messageRows] = await Promise.all([
    db
      .select({ cycle: attendanceCycles, userName: users.name, queueName: queues.name })
      .from(attendanceCycles)
      .leftJoin(users, eq(users.id, attendanceCycles.userId))
      .leftJoin(queues, eq(queues.id, attendanceCycles.queueId))
      .where(and(eq(attendanceCycles.companyId, actor.companyId), eq(attendanceCycles.ticketId, ticketId)))
      .orderBy(asc(attendanceCycles.id)),
    db
      .select({
        id: messages.id,
        body: messages.body,
        fromMe: messages.fromMe,
        mediaType: messages.mediaType,
        mediaName: messages.mediaName,
        isDeleted: messages.isDeleted,
        createdAt: messages.createdAt,
      })
      .from(messages)
      .where(and(eq(messages.companyId, actor.companyId), eq(messages.ticketId, ticketId)))
      .orderBy(asc(messages.createdAt), asc(messages.id)),
  ]);

  const t = TEXTS[lang];
  const zone = row.timeZone;
  const dateTime = new Intl.DateTimeFormat(LOCALES[lang], { timeZone: zone, dateStyle: "short", timeStyle: "medium" });
  const time = new Intl.DateTimeFormat(LOCALES[lang], { timeZone: zone, hour: "2-digit", minute: "2-digit", second: "2-digit" });
  const day = new Intl.DateTimeFormat(LOCALES[lang], { timeZone: zone, day: "2-digit", month: "2-digit", year: "numeric" });

  const entries: Entry[] = [];
  const by = (name: string | null) => (name ? ` ${t.by} ${name}` : "");
  for (const { cycle, userName, queueName } of cycleRows) {
    if (cycle.queuedAt) entries.push({ at: cycle.queuedAt, kind: "event", order: 0, text: `${t.queued}${queueName ? `: ${queueName}` : ""}` });
    if (cycle.chatbotAt) entries.push({ at: cycle.chatbotAt, kind: "event", order: 1, text: t.chatbot });
    if (cycle.startedAt) entries.push({ at: cycle.startedAt, kind: "event", order: 2, text: `${t.started}${by(userName)}` });
    if (cycle.finishedAt) entries.push({ at: cycle.finishedAt, kind: "event", order: 3, text: `${t.finished}${by(userName)}` });
    if (cycle.rating !== null && cycle.ratingAt) entries.push({ at: cycle.ratingAt, kind: "event", order: 4, text: `${t.rated}: ${cycle.rating}/3` });
  }
  for (const m of messageRows)
    entries.push({
      at: m.createdAt,
      kind: "message",
      id: m.id,
      fromMe: m.fromMe,
      body: m.body,
      mediaType: m.mediaType,
      mediaName: m.mediaName,
      isDeleted: m.isDeleted,
    });
  entries.sort(
    (a, b) =>
      a.at.getTime() - b.at.getTime() ||
      (a.kind === "event" ? a.order : 10) - (b.kind === "event" ? b.order : 10) ||
      (a.kind === "message" && b.kind === "message" ? a.id - b.id : 0),
  );

  const out: string[] = [];
  let lastDay = "";
  for (const e of entries) {
    const d = day.format(e.at);
    if (d !== lastDay) {
      out.push(`<div class="day">${escapeHtml(d)}</div>`);
      lastDay = d;
    }
    if (e.kind === "event") {
      out.push(`<div class="event"><time>${escapeHtml(time.format(e.at))}</time> ${escapeHtml(e.text)}</div>`);
      continue;
    }
    const media = (t.media as Record<string, string>)[e.mediaType === "application" ? "document" : e.mediaType];
    let content: string;
    if (e.isDeleted) content = `<em>${escapeHtml(t.deleted)}</em>`;
    else {
      const parts: string[] = [];
      if (media) parts.push(`<span class="media">[${escapeHtml(media)}${e.mediaName ? `: ${escapeHtml(e.mediaName)}` : ""}]</span>`);
      const body = e.mediaType === "location" ? (e.body.split("|")[1] ?? e.body) : e.body;
      if (body.trim()) parts.push(escapeHtml(body).replace(/\n/g, "<br>"));
      content = parts.join(" ");
    }
    const who = e.fromMe ? t.us : row.contactName || t.customer;
    out.push(
      `<div class="msg ${e.fromMe ? "out" : "in"}"><div class="meta">${escapeHtml(who)} · <time>${escapeHtml(time.format(e.at))}</time></div><div class="body">${content}</div></div>`,
    );
  }

  const status = (t.statuses as Record<string, string>)[row.ticket.status] ?? row.ticket.status;
  const info: [string, string][] = [
    [t.ticket, `#${row.ticket.id}`],
    [t.contact, row.contactName],
    [t.number, row.contactNumber ?? ""],
    [t.connection, row.connectionName ?? ""],
    [t.queue, row.queueName ?? t.noQueue],
    [t.attendant, row.userName ?? ""],
    [t.status, status],
    [t.exported, dateTime.format(now)],
  ];
  return `<!doctype html>
<html lang="${lang === "pt" ? "pt-BR" : lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${t.title} #${row.ticket.id} — ${row.contactName}`)}</title>
<style>
  body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1b1b1b; margin: 24px auto; max-width: 800px; padding: 0 16px; }
  h1 { font-size: 20px; margin: 0 0 12px; color: #2e7d32; }
  table.info { border-collapse: collapse; margin-bottom: 16px; }
  table.info th { text-align: left; padding: 2px 16px 2px 0; color: #555; font-weight: 500; }
  .hint { color: #777; font-size: 12px; margin-bottom: 16px; }
  .day { text-align: center; color: #555; font-size: 12px; margin: 16px 0 8px; border-bottom: 1px solid #ddd; }
  .event { color: #2e7d32; font-size: 12px; margin: 6px 0; text-align: center; }
  .msg { margin: 6px 0; padding: 6px 10px; border-radius: 8px; max-width: 75%; break-inside: avoid; }
  .msg.in { background: #f1f1f1; }
  .msg.out { background: #dcf8c6; margin-left: auto; }
  .meta { font-size: 11px; color: #666; }
  .media { color: #555; font-style: italic; }
  time { font-variant-numeric: tabular-nums; }
  @media print { body { margin: 0; max-width: none; } .hint { display: none; } .msg.in, .msg.out { border: 1px solid #ccc; } }
</style>
</head>
<body>
<h1>${escapeHtml(t.title)}</h1>
<table class="info">${info.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join("")}</table>
<div class="hint">${escapeHtml(t.print)}</div>
<section aria-label="${escapeHtml(t.messages)}">
${out.length ? out.join("\n") : `<p>${escapeHtml(t.empty)}</p>`}
</section>
</body>
</html>
`;
}
