/**
 * Template variables of automatic and bot messages (docs/api.md "Template variables"). The reference's
 * Mustache view {firstName, name, gretting, ms, protocol, hora} plus Portuguese aliases, written either
 * `{{name}}` (reference, Mustache style) or `{nome}` (campaign style). Unknown names stay as typed.
 */
import { dateTimeFormat } from "@balcao/shared";
export interface TemplateContext {
  contactName: string;
  contactNumber?: string | null;
  /** The attendant, when there is one (greeting on accept, transfer to a person). */
  userName?: string | null;
  queueName?: string | null;
  ticketId?: number;
  at: Date;
  timeZone: string;
}

/** Bom dia 06–11, Boa tarde 12–17, Boa noite 18–23, Boa madrugada 00–05 (company clock). */
export function greetingFor(hour: number): string {
  if (hour >= 6 && hour < 12) return "Bom dia";
  if (hour >= 12 && hour < 18) return "Boa tarde";
  if (hour >= 18) return "Boa noite";
  return "Boa madrugada";
}

function wallClock(at: Date, timeZone: string) {
  const parts = dateTimeFormat("en-GB", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "00";
  return { yyyy: get("year"), MM: get("month"), dd: get("day"), HH: get("hour"), mm: get("minute"), ss: get("second") };
}

/** The value of every variable name for one message. */
export function templateVariables(c: TemplateContext): Record<string, string> {
  const t = wallClock(c.at, c.timeZone);
  const name = c.contactName.trim();
  const firstName = name.split(/\s+/)[0] ?? "";
  const greeting = greetingFor(Number(t.HH));
  const protocol = `${t.yyyy}${t.MM}${t.dd}${t.HH}${t.mm}${t.ss}`;
  const hora = `${t.HH}:${t.mm}:${t.ss}`;
  const data = `${t.dd}/${t.MM}/${t.yyyy}`;
  const vars: Record<string, string> = {
    name,
    nome: name,
    firstName,
    primeiroNome: firstName,
    ms: greeting,
    gretting: greeting,
    greeting,
    saudacao: greeting,
    saudação: greeting,
    protocol,
    protocolo: protocol,
    hora,
    hour: hora,
    data,
    date: data,
    numero: c.contactNumber ?? "",
    número: c.contactNumber ?? "",
    number: c.contactNumber ?? "",
    atendente: c.userName ?? "",
    user: c.userName ?? "",
    fila: c.queueName ?? "",
    queue: c.queueName ?? "",
  };
  if (c.ticketId !== undefined) vars.ticket = String(c.ticketId);
  return vars;
}

/** Replaces `{{ var }}` and `{var}`; text is never HTML-escaped (WhatsApp is plain text). */
export function renderTemplate(text: string, vars: Record<string, string>): string {
  // One pass, so a value that itself looks like a variable (a contact named "{nome}") stays as it is.
  return text.replace(/\{\{\s*([\p{L}\w]+)\s*\}\}|\{\s*([\p{L}\w]+)\s*\}/gu, (whole: string, a?: string, b?: string) => {
    const key = (a ?? b)!;
    return Object.prototype.hasOwnProperty.call(vars, key) ? vars[key]! : whole;
  });
}
