/**
 * The send API (spec §7 `POST /api/messages/send`, docs/api.md "Send API"): a connection's token sends a
 * message to a number. The number is normalised like a contact's and checked on WhatsApp through the token's
 * connection; the contact is found (any identity or 9th-digit form) or created; the contact's live ticket on
 * that connection is reused or a new one waits in line (tickets/outbound.ts); the message then goes through
 * the same MessagesService path as an attendant's (stored pending, events, delivery, failure marking).
 */
import { eq } from "drizzle-orm";
import { normalizePhoneNumber, type SendApiResponse } from "@balcao/shared";
import type { ChannelAddress } from "../../channels/types";
import type { AppContext } from "../../context";
import { companies, connections } from "../../db/schema";
import { AppError } from "../../http/errors";
import { RateLimiter } from "../../http/rateLimit";
import type { AuthService } from "../auth/service";
import { resolveInboundContact } from "../contacts/identity";
import { presentContact } from "../contacts/presenter";
import { checkWhatsappNumber } from "../contacts/whatsapp";
import type { OutgoingFile } from "../messages/service";
import { openOrReuseTicket } from "../tickets/outbound";
import { tokenHash } from "./idempotency";

const MINUTE = 60_000;

export interface ApiConnection {
  id: number;
  companyId: number;
  status: string;
  tokenHash: string;
}

export interface ApiSendInput {
  number: string;
  body: string;
  files?: OutgoingFile[];
}

export class SendApiService {
  /** Calls per connection (its token) per minute: the login limiter's fixed window, in process memory. */
  private readonly limiter: RateLimiter;

  constructor(
    private readonly ctx: AppContext,
    private readonly auth: AuthService,
  ) {
    this.limiter = new RateLimiter(ctx.config.sendApiRateLimit, MINUTE);
  }

  private get db() {
    return this.ctx.database.db;
  }

  /**
   * The connection a bearer token belongs to. Tokens are globally unique, so this lookup comes before any
   * company is known. Unknown or regenerated-away (revoked) → 401; the company's lapsed subscription → 402.
   */
  async authenticate(token: string | undefined): Promise<ApiConnection> {
    if (!token || token.length > 128) throw new AppError("ERR_INVALID_API_TOKEN", 401);
    const [row] = await this.db
      .select({
        id: connections.id,
        companyId: connections.companyId,
        status: connections.status,
        company: { status: companies.status, dueDate: companies.dueDate, timeZone: companies.timeZone },
      })
      .from(connections)
      .innerJoin(companies, eq(companies.id, connections.companyId))
      .where(eq(connections.token, token))
      .limit(1);
    if (!row) throw new AppError("ERR_INVALID_API_TOKEN", 401);
    this.auth.assertSubscriptionActive(row.company, false);
    return { id: row.id, companyId: row.companyId, status: row.status, tokenHash: tokenHash(token) };
  }

  /** 429 with Retry-After once the connection's calls of this minute are spent; counts this one. */
  rateLimit(connection: ApiConnection): void {
    const key = `connection:${connection.id}`;
    this.limiter.check(key);
    this.limiter.hit(key);
  }

  /** 409 with the status when WhatsApp is not connected: nothing is stored, the caller retries later. */
  assertConnected(connection: ApiConnection): void {
    if (connection.status !== "CONNECTED") throw new AppError("ERR_WAPP_NOT_CONNECTED", 409, { status: connection.status });
  }

  async send(connection: ApiConnection, input: ApiSendInput): Promise<SendApiResponse> {
    const { companyId } = connection;
    const files = input.files ?? [];
    const body = input.body.trim();
    if (!body && files.length === 0) throw new AppError("ERR_CREATING_MESSAGE", 400);
    const typed = normalizePhoneNumber(input.number);
    if (!typed) throw new AppError("ERR_WAPP_INVALID_CONTACT", 400);
    const check = await checkWhatsappNumber(this.ctx, companyId, typed, connection);
    const phones = check.checked ? [...new Set([check.canonical, typed])] : [typed];
    const address: ChannelAddress = { id: phones[0]!, kind: "phone", alternates: phones.slice(1).map((id) => ({ kind: "phone" as const, id })) };

    const target = await this.db.transaction(async (tx) => {
      const { contact, created } = await resolveInboundContact(tx, companyId, connection.id, address);
      const ticket = await openOrReuseTicket(tx, { companyId, contactId: contact.id, connectionId: connection.id, openerId: null });
      return { contact, created, ticketId: ticket.id };
    });
    if (target.created) this.ctx.events.publish({ type: "contacts.created", companyId, contact: presentContact(target.contact) });

    const sent = await this.ctx.services.messages.sendAsCompany(companyId, target.ticketId, { body: input.body, files });
    return { mensagem: "Mensagem enviada", contactId: target.contact.id, ticketId: target.ticketId, messages: sent };
  }
}
