/**
 * Session work that answers with a value, wherever a request lands (issue 11, scale-out): number checks
 * ("is this number on WhatsApp?"), the paired phone's address book, a pairing code for a connection waiting
 * to be paired (POST /whatsappsession/:id/pairing-code), and whole calls of a registered route
 * (the simulator's API, whose phones live in the owner's memory). Like the send relay (sendRelay.ts) it asks
 * the connection's lease owner over NOTIFY (`balcao_session` / `balcao_session_done`) and gets back the
 * owner's own result or channel error; no answer within SEND_RELAY_TIMEOUT_MS is NOT_CONNECTED, as a session
 * that is not live would be. A message over one NOTIFY's limit (8000 bytes: an address book, a simulator
 * answer with media) travels base64-encoded in numbered parts that the listener puts back together.
 */
import { randomBytes } from "node:crypto";
import type { AppContext } from "../../context";
import { ChannelError, type ChannelSession } from "../../channels/types";
import { sessionFor } from "./gateway";
import { relayOf } from "./sendRelay";
import { perContext } from "../../perContext";

const ASK = "balcao_session";
const DONE = "balcao_session_done";
/** Characters of one NOTIFY payload (PostgreSQL allows 8000 bytes); longer messages go in parts. */
const NOTIFY_MAX = 7000;
const PART_DATA = 6000;
/** Unfinished parts are dropped after this long. */
const PARTS_TTL_MS = 60_000;

interface Target {
  companyId: number;
  connectionId: number;
}

export type SessionRequest =
  | (Target & { kind: "check"; number: string })
  | (Target & { kind: "contacts" })
  | (Target & { kind: "pairingCode"; phoneDigits: string })
  | (Target & { kind: "call"; route: string; payload: unknown });

type ChannelErrorCode = ChannelError["code"];

interface Envelope {
  id: string;
  request: SessionRequest;
}

interface Answer {
  id: string;
  error: ChannelErrorCode | null;
  value?: unknown;
}

interface Part {
  part: string;
  seq: number;
  of: number;
  data: string;
}

/** What a session offers to any process: its own when it runs here, else one that asks the owner. */
export type SessionAnywhere = Pick<ChannelSession, "checkNumber" | "listContacts">;

export type CallHandler = (request: Extract<SessionRequest, { kind: "call" }>) => Promise<unknown>;

export const sessionRelayOf = perContext((ctx) => new SessionRelay(ctx));

export class SessionRelay {
  private readonly waiters = new Map<string, (answer: Answer) => void>();

  private readonly handlers = new Map<string, CallHandler>();

  private readonly parts = new Map<string, { at: number; data: string[] }>();

  private readonly prefix = randomBytes(6).toString("hex");

  private seq = 0;

  constructor(private readonly ctx: AppContext) {}

  /** Whether another live process runs the connection (so its session work must be asked for). */
  ownedElsewhere(connectionId: number): Promise<boolean> {
    return relayOf(this.ctx).ownedElsewhere(connectionId);
  }

  /**
   * The connection's session wherever it runs: one that asks the owner when another live process runs it,
   * else this process's own (ChannelError NOT_CONNECTED when it is not live here either).
   */
  async sessionAt(companyId: number, connectionId: number): Promise<SessionAnywhere> {
    if (!(await this.ownedElsewhere(connectionId))) return sessionFor(this.ctx, companyId, connectionId);
    const target = { companyId, connectionId };
    return {
      checkNumber: async (number) => ((await this.remote({ ...target, kind: "check", number })) as string | null) ?? null,
      listContacts: async () => ((await this.remote({ ...target, kind: "contacts" })) as Awaited<ReturnType<ChannelSession["listContacts"]>>) ?? [],
    };
  }

  /** A pairing code from the connection's session, here or on its owner (ChannelError as the owner's). */
  async pairingCode(companyId: number, connectionId: number, phoneDigits: string): Promise<{ code: string; expiresAt: Date }> {
    if (!(await this.ownedElsewhere(connectionId))) return this.ctx.channels.requestPairingCode(companyId, connectionId, phoneDigits);
    const answer = (await this.remote({ companyId, connectionId, kind: "pairingCode", phoneDigits })) as { code: string; expiresAt: string };
    return { code: answer.code, expiresAt: new Date(answer.expiresAt) };
  }

  /** Runs a registered route's call on the connection's owner; the owner's answer as it is. */
  async call(request: Extract<SessionRequest, { kind: "call" }>): Promise<unknown> {
    return this.remote(request);
  }

  /** Serves `kind: "call"` requests for `route` on the connections this process runs. */
  handle(route: string, handler: CallHandler): () => void {
    this.handlers.set(route, handler);
    return () => {
      if (this.handlers.get(route) === handler) this.handlers.delete(route);
    };
  }

  private async remote(request: SessionRequest): Promise<unknown> {
    const id = `${this.prefix}-${++this.seq}`;
    const answered = new Promise<Answer>((resolve) => this.waiters.set(id, resolve));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), this.ctx.config.sendRelayTimeoutMs)));
    try {
      await this.post(ASK, { id, request } satisfies Envelope);
      const outcome = await Promise.race([answered, timedOut]);
      if (outcome === "timeout") throw new ChannelError("NOT_CONNECTED", "the connection's owner did not answer");
      if (outcome.error) throw new ChannelError(outcome.error);
      return outcome.value;
    } finally {
      clearTimeout(timer);
      this.waiters.delete(id);
    }
  }

  private async doHere(request: SessionRequest): Promise<unknown> {
    if (request.kind === "call") {
      const handler = this.handlers.get(request.route);
      if (!handler) throw new ChannelError("UNSUPPORTED", `no relay handler for ${request.route}`);
      return handler(request);
    }
    if (request.kind === "pairingCode") return this.ctx.channels.requestPairingCode(request.companyId, request.connectionId, request.phoneDigits);
    const session = sessionFor(this.ctx, request.companyId, request.connectionId);
    return request.kind === "check" ? session.checkNumber(request.number) : session.listContacts();
  }

  /** Serves other processes' requests for the connections this process runs; returns the teardown. */
  listen(): () => void {
    const stopAsk = this.ctx.notifications.on(ASK, (payload) => {
      const envelope = this.receive<Envelope>(payload);
      if (!envelope?.request || !this.ctx.channels.isLocal(envelope.request.connectionId)) return;
      void this.serve(envelope);
    });
    const stopDone = this.ctx.notifications.on(DONE, (payload) => {
      const answer = this.receive<Answer>(payload);
      if (answer?.id) this.waiters.get(answer.id)?.(answer);
    });
    return () => {
      stopAsk();
      stopDone();
    };
  }

  private async serve({ id, request }: Envelope): Promise<void> {
    let answer: Answer;
    try {
      const value = await this.doHere(request);
      answer = { id, error: null, ...(value !== undefined && { value }) };
    } catch (err) {
      if (!(err instanceof ChannelError)) this.ctx.log.error({ err, kind: request.kind }, "relayed session work failed");
      answer = { id, error: err instanceof ChannelError ? err.code : "SEND_FAILED" };
    }
    await this.post(DONE, answer).catch((err: unknown) => this.ctx.log.warn({ err }, "session relay: answer not sent"));
  }

  /** One NOTIFY, or numbered parts when the message is too long for one. */
  private async post(channel: string, message: Envelope | Answer): Promise<void> {
    const text = JSON.stringify(message);
    const db = this.ctx.database.db;
    if (text.length <= NOTIFY_MAX) return this.ctx.notifications.notify(db, channel, text);
    const data = Buffer.from(text).toString("base64");
    const part = `${this.prefix}-p${++this.seq}`;
    const of = Math.ceil(data.length / PART_DATA);
    for (let seq = 0; seq < of; seq++) {
      const piece: Part = { part, seq, of, data: data.slice(seq * PART_DATA, (seq + 1) * PART_DATA) };
      await this.ctx.notifications.notify(db, channel, JSON.stringify(piece));
    }
  }

  /** A whole message from a payload: the payload itself, or the part that completes one (else null). */
  private receive<T>(payload: string): T | null {
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      return null;
    }
    const piece = parsed as Partial<Part> | null;
    if (!piece || typeof piece.part !== "string") return parsed as T;
    if (typeof piece.seq !== "number" || typeof piece.of !== "number" || piece.seq < 0 || piece.seq >= piece.of) return null;
    const now = Date.now();
    for (const [key, entry] of this.parts) if (now - entry.at > PARTS_TTL_MS) this.parts.delete(key);
    const entry = this.parts.get(piece.part) ?? { at: now, data: [] };
    this.parts.set(piece.part, entry);
    entry.data[piece.seq] = String(piece.data ?? "");
    if (entry.data.filter((d) => d !== undefined).length < piece.of) return null;
    this.parts.delete(piece.part);
    try {
      return JSON.parse(Buffer.from(entry.data.join(""), "base64").toString()) as T;
    } catch {
      return null;
    }
  }
}
