/**
 * A scripted stand-in for Baileys' socket (WhatsApp's servers are not reachable in tests). It emits Baileys' real
 * event shapes: connection.update with lastDisconnect.error as a Boom (output.statusCode), messages.upsert with
 * WAMessage objects, messages.update with proto.WebMessageInfo.Status values, call with WACallEvent. Used by
 * baileys.test.ts and the provider contract suite (baileys.contract.test.ts).
 */
import { EventEmitter } from "node:events";

/** Boom's shape, as Baileys puts it in lastDisconnect.error. */
export const boom = (statusCode: number) =>
  Object.assign(new Error(`Connection Failure ${statusCode}`), {
    isBoom: true,
    output: { statusCode, payload: { statusCode, error: "x", message: "x" }, headers: {} },
  });

export class ScriptedSocket {
  readonly ev = new EventEmitter();
  user?: { id: string; name?: string };
  /** Every sendMessage call, with the message id it answered. */
  sent: { jid: string; content: Record<string, unknown>; options?: { quoted?: unknown }; id: string }[] = [];
  read: unknown[] = [];
  rejected: [string, string][] = [];
  ended = false;
  loggedOut = false;
  private n = 0;
  readonly signalRepository = {
    lidMapping: { getPNForLID: async (lid: string) => (lid === "99887766@lid" ? "5511955554444@s.whatsapp.net" : null) },
  };
  constructor(readonly config: Record<string, unknown>) {}
  updateMediaMessage = async (m: unknown) => m;
  async sendMessage(jid: string, content: Record<string, unknown>, options?: { quoted?: unknown }) {
    const id = `3EB0SCRIPTED${++this.n}`;
    this.sent.push({ jid, content, options, id });
    return { key: { remoteJid: jid, fromMe: true, id }, message: {}, messageTimestamp: Math.floor(Date.now() / 1000) };
  }
  async readMessages(keys: unknown[]) {
    this.read.push(...keys);
  }
  /** Numbers ending with 0000 have no WhatsApp; Brazilian mobiles answer without the ninth digit, as WhatsApp does. */
  async onWhatsApp(digits: string) {
    return [{ jid: `${digits.replace(/^55(\d\d)9/, "55$1")}@s.whatsapp.net`, exists: !digits.endsWith("0000") }];
  }
  async rejectCall(id: string, from: string) {
    this.rejected.push([id, from]);
  }
  async logout() {
    this.loggedOut = true;
  }
  pairingPhone?: string;
  async requestPairingCode(phone: string) {
    this.pairingPhone = phone;
    return "K7QW9XZ2";
  }
  async end() {
    this.ended = true;
  }
  // Script helpers
  update(u: object) {
    this.ev.emit("connection.update", u);
  }
  open(jid = "5511911112222:7@s.whatsapp.net") {
    // As Baileys does on pairing: creds.me is set on the auth state it was given, then creds.update.
    const auth = this.config.auth as { creds: { me?: { id: string } } };
    auth.creds.me = { id: jid };
    this.ev.emit("creds.update", { me: { id: jid } });
    this.user = { id: jid };
    this.update({ connection: "open" });
  }
  close(code: number) {
    this.update({ connection: "close", lastDisconnect: { error: boom(code), date: new Date() } });
  }
  /** As Baileys' mapWebSocketError reports a socket that never reached WhatsApp (DNS failure here). */
  unreachable() {
    const error = Object.assign(boom(408), {
      message: "WebSocket Error (getaddrinfo ENOTFOUND web.whatsapp.com)",
      data: Object.assign(new Error("getaddrinfo ENOTFOUND web.whatsapp.com"), { code: "ENOTFOUND" }),
    });
    this.update({ connection: "close", lastDisconnect: { error, date: new Date() } });
  }
}
