import { randomBytes } from "node:crypto";
import { and, asc, count, eq, inArray, ne } from "drizzle-orm";
import { connectionCreateBody, connectionUpdateBody, type ConnectionDTO, type ConnectionHealthDTO, type PairingCodeDTO } from "@balcao/shared";
import type { z } from "zod";
import { ChannelError } from "../../channels/types";
import { saveCloudApiSettings } from "../../channels/cloudapi/account";
import type { ChannelCommand } from "../../channels/manager";
import type { AppContext } from "../../context";
import { isUniqueViolation, type Tx } from "../../db/client";
import { companies, connectionQueues, connections, plans, queues } from "../../db/schema";
import { AppError, forbidden, notFound } from "../../http/errors";
import type { Actor } from "../auth/service";
import { connectionHealth } from "./health";
import { connectionPolicy } from "./policy";
import { presentConnection, presentConnections } from "./presenter";
import { sessionRelayOf } from "../messages/sessionRelay";

type CreateInput = z.output<typeof connectionCreateBody>;
type UpdateInput = z.output<typeof connectionUpdateBody>;
type ConnectionRow = typeof connections.$inferSelect;

/** A send-API token: 192 random bits, URL-safe. */
const newToken = () => randomBytes(24).toString("base64url");

export class ConnectionsService {
  constructor(private readonly ctx: AppContext) {}

  private get db() {
    return this.ctx.database.db;
  }

  private get channels() {
    return this.ctx.channels;
  }

  async list(actor: Actor, companyId?: number): Promise<ConnectionDTO[]> {
    // The spec lets the client pass companyId; only a super user's is honoured (reference defect 3).
    const scope = actor.super && companyId ? companyId : actor.companyId;
    const rows = await this.db.select().from(connections).where(eq(connections.companyId, scope)).orderBy(asc(connections.name), asc(connections.id));
    return presentConnections(this.db, rows, { admin: connectionPolicy.viewSecrets(actor) && scope === actor.companyId });
  }

  private async findScoped(actor: Actor, id: number, tx?: Tx): Promise<ConnectionRow> {
    const [row] = await (tx ?? this.db)
      .select()
      .from(connections)
      .where(and(eq(connections.id, id), eq(connections.companyId, actor.companyId)))
      .limit(1);
    if (!row) throw notFound("ERR_NO_WAPP_FOUND");
    return row;
  }

  async show(actor: Actor, id: number): Promise<ConnectionDTO> {
    return presentConnection(this.db, await this.findScoped(actor, id), { admin: connectionPolicy.viewSecrets(actor) });
  }

  /** Locks the company row: concurrent creates/edits cannot overrun the plan or leave two defaults. */
  private async lockCompany(tx: Tx, companyId: number): Promise<{ planConnections: number | null }> {
    const [company] = await tx
      .select({ id: companies.id, planConnections: plans.connections })
      .from(companies)
      .leftJoin(plans, eq(plans.id, companies.planId))
      .where(eq(companies.id, companyId))
      .for("update", { of: companies });
    if (!company) throw notFound("ERR_NO_COMPANY_FOUND");
    return company;
  }

  private async assertQueuesInCompany(tx: Tx, companyId: number, queueIds: number[]): Promise<void> {
    if (queueIds.length === 0) return;
    const found = await tx
      .select({ id: queues.id })
      .from(queues)
      .where(and(eq(queues.companyId, companyId), inArray(queues.id, queueIds)));
    if (found.length !== queueIds.length) throw new AppError("ERR_NO_QUEUE_FOUND", 400);
  }

  private async replaceQueues(tx: Tx, companyId: number, connectionId: number, queueIds: number[]): Promise<void> {
    await tx.delete(connectionQueues).where(eq(connectionQueues.connectionId, connectionId));
    if (queueIds.length) await tx.insert(connectionQueues).values(queueIds.map((queueId) => ({ companyId, connectionId, queueId })));
  }

  /** Clears the other defaults of the company; returns the rows that stopped being default. */
  private async clearOtherDefaults(tx: Tx, companyId: number, keepId: number): Promise<ConnectionRow[]> {
    return tx
      .update(connections)
      .set({ isDefault: false, updatedAt: new Date() })
      .where(and(eq(connections.companyId, companyId), eq(connections.isDefault, true), ne(connections.id, keepId)))
      .returning();
  }

  private assertGreeting(queueIds: number[], greeting: string): void {
    if (queueIds.length > 1 && !greeting.trim()) throw new AppError("ERR_WAPP_GREETING_REQUIRED", 400);
  }

  async create(actor: Actor, input: CreateInput): Promise<ConnectionDTO> {
    if (!connectionPolicy.create(actor)) throw forbidden();
    const channel = input.channel ?? this.ctx.config.channels.defaultChannel;
    if (!this.channels.provider(channel)) throw new AppError("ERR_CHANNEL_UNAVAILABLE", 400, { channel });
    const queueIds = [...new Set(input.queueIds ?? [])];
    this.assertGreeting(queueIds, input.greetingMessage ?? "");
    const cloud = input.cloudApi;
    if (channel === "cloud-api" && !(cloud?.phoneNumberId && cloud.accessToken && cloud.appSecret && cloud.verifyToken))
      throw new AppError("ERR_CLOUD_API_SETTINGS_REQUIRED", 400);
    const { row, demoted } = await this.withNameGuard(() =>
      this.db.transaction(async (tx) => {
        const company = await this.lockCompany(tx, actor.companyId);
        const [{ value: existing }] = (await tx.select({ value: count() }).from(connections).where(eq(connections.companyId, actor.companyId))) as [
          { value: number },
        ];
        if (company.planConnections && company.planConnections > 0 && existing >= company.planConnections)
          throw new AppError("ERR_CONNECTION_LIMIT_REACHED", 400, { limit: company.planConnections });
        await this.assertQueuesInCompany(tx, actor.companyId, queueIds);
        // The first connection of a company is its default, whatever the request says.
        const isDefault = existing === 0 || input.isDefault === true;
        const demotedRows = isDefault ? await this.clearOtherDefaults(tx, actor.companyId, 0) : [];
        const [inserted] = await tx
          .insert(connections)
          .values({
            companyId: actor.companyId,
            name: input.name,
            status: "OPENING",
            isDefault,
            greetingMessage: input.greetingMessage ?? "",
            complationMessage: input.complationMessage ?? "",
            outOfHoursMessage: input.outOfHoursMessage ?? "",
            ratingMessage: input.ratingMessage ?? "",
            farewellMessage: input.farewellMessage ?? "",
            provider: input.provider || "beta",
            channel,
            timeSendQueue: input.timeSendQueue ?? 0,
            sendIdQueue: input.sendIdQueue ?? 0,
            token: newToken(),
          })
          .returning();
        await this.replaceQueues(tx, actor.companyId, inserted!.id, queueIds);
        if (channel === "cloud-api") {
          await saveCloudApiSettings(tx, actor.companyId, inserted!.id, cloud!);
          const [withAccount] = await tx
            .select()
            .from(connections)
            .where(and(eq(connections.id, inserted!.id), eq(connections.companyId, actor.companyId)));
          return { row: withAccount!, demoted: demotedRows };
        }
        return { row: inserted!, demoted: demotedRows };
      }),
    );
    await this.publishUpdated(actor.companyId, [...demoted, row]);
    // Like the reference, a new connection starts at once (OPENING → qrcode).
    await this.runCommand(actor.companyId, row.id, "start", true);
    return this.show(actor, row.id);
  }

  async update(actor: Actor, id: number, input: UpdateInput): Promise<ConnectionDTO> {
    await this.findScoped(actor, id);
    if (!connectionPolicy.edit(actor)) throw forbidden();
    const { row, demoted, restart } = await this.withNameGuard<{ row: ConnectionRow; demoted: ConnectionRow[]; restart?: boolean }>(() =>
      this.db.transaction(async (tx) => {
        await this.lockCompany(tx, actor.companyId);
        const current = await this.findScoped(actor, id, tx);
        const queueIds =
          input.queueIds !== undefined
            ? [...new Set(input.queueIds)]
            : (await tx.select({ id: connectionQueues.queueId }).from(connectionQueues).where(eq(connectionQueues.connectionId, id))).map(
                (q) => q.id,
              );
        this.assertGreeting(queueIds, input.greetingMessage ?? current.greetingMessage);
        if (input.queueIds !== undefined) await this.assertQueuesInCompany(tx, actor.companyId, queueIds);
        // Exactly one default: it moves by making another connection default, never by switching it off.
        if (input.isDefault === false && current.isDefault) throw new AppError("ERR_NO_OTHER_WHATSAPP", 400);
        const demotedRows = input.isDefault === true && !current.isDefault ? await this.clearOtherDefaults(tx, actor.companyId, id) : [];
        const [updated] = await tx
          .update(connections)
          .set({
            ...(input.name !== undefined && { name: input.name }),
            ...(input.greetingMessage !== undefined && { greetingMessage: input.greetingMessage }),
            ...(input.complationMessage !== undefined && { complationMessage: input.complationMessage }),
            ...(input.outOfHoursMessage !== undefined && { outOfHoursMessage: input.outOfHoursMessage }),
            ...(input.ratingMessage !== undefined && { ratingMessage: input.ratingMessage }),
            ...(input.farewellMessage !== undefined && { farewellMessage: input.farewellMessage }),
            ...(input.provider && { provider: input.provider }),
            ...(input.timeSendQueue !== undefined && { timeSendQueue: input.timeSendQueue }),
            ...(input.sendIdQueue !== undefined && { sendIdQueue: input.sendIdQueue }),
            ...(input.isDefault === true && { isDefault: true }),
            updatedAt: new Date(),
          })
          .where(and(eq(connections.id, id), eq(connections.companyId, actor.companyId)))
          .returning();
        if (input.queueIds !== undefined) await this.replaceQueues(tx, actor.companyId, id, queueIds);
        if (current.channel === "cloud-api" && input.cloudApi && Object.values(input.cloudApi).some((v) => v !== undefined)) {
          if (!(await saveCloudApiSettings(tx, actor.companyId, id, input.cloudApi))) throw new AppError("ERR_CLOUD_API_SETTINGS_REQUIRED", 400);
          const [withAccount] = await tx
            .select()
            .from(connections)
            .where(and(eq(connections.id, id), eq(connections.companyId, actor.companyId)));
          return { row: withAccount!, demoted: demotedRows, restart: true };
        }
        return { row: updated!, demoted: demotedRows };
      }),
    );
    await this.publishUpdated(actor.companyId, [...demoted, row]);
    // New Cloud API settings take effect at once: the session re-checks the token with them.
    if (restart) await this.runCommand(actor.companyId, id, "start", true);
    return presentConnection(this.db, row, { admin: true });
  }

  async remove(actor: Actor, id: number): Promise<void> {
    await this.findScoped(actor, id);
    if (!connectionPolicy.remove(actor)) throw forbidden();
    await this.channels.forget(actor.companyId, id);
    const promoted = await this.db.transaction(async (tx) => {
      await this.lockCompany(tx, actor.companyId);
      const [deleted] = await tx
        .delete(connections)
        .where(and(eq(connections.id, id), eq(connections.companyId, actor.companyId)))
        .returning({ isDefault: connections.isDefault });
      if (!deleted?.isDefault) return [];
      // The company keeps exactly one default while it has connections: the oldest remaining one.
      const [next] = await tx
        .select({ id: connections.id })
        .from(connections)
        .where(eq(connections.companyId, actor.companyId))
        .orderBy(asc(connections.id))
        .limit(1);
      if (!next) return [];
      return tx.update(connections).set({ isDefault: true, updatedAt: new Date() }).where(eq(connections.id, next.id)).returning();
    });
    this.ctx.events.publish({ type: "connections.deleted", companyId: actor.companyId, connectionId: id });
    await this.publishUpdated(actor.companyId, promoted);
  }

  /**
   * POST /whatsapp/:id/token (issue 19): a new send-API token; the old one stops working at once (401).
   * Admins only, like editing the connection.
   */
  async regenerateToken(actor: Actor, id: number): Promise<ConnectionDTO> {
    await this.findScoped(actor, id);
    if (!connectionPolicy.edit(actor)) throw forbidden();
    const [row] = await this.db
      .update(connections)
      .set({ token: newToken(), updatedAt: new Date() })
      .where(and(eq(connections.id, id), eq(connections.companyId, actor.companyId)))
      .returning();
    if (!row) throw notFound("ERR_NO_WAPP_FOUND");
    await this.publishUpdated(actor.companyId, [row]);
    return presentConnection(this.db, row, { admin: true });
  }

  /** POST /whatsappsession/:id (start / try again), PUT (new QR), DELETE (disconnect: logout). */
  async session(actor: Actor, id: number, command: ChannelCommand): Promise<ConnectionDTO> {
    const row = await this.findScoped(actor, id);
    if (!connectionPolicy.operateSession(actor)) throw forbidden();
    if (command !== "stop" && !this.channels.provider(row.channel)) throw new AppError("ERR_CHANNEL_UNAVAILABLE", 400, { channel: row.channel });
    await this.runCommand(actor.companyId, id, command, false);
    return this.show(actor, id);
  }

  /** GET /whatsapp/:id/health (issue 21). */
  async health(actor: Actor, id: number): Promise<ConnectionHealthDTO> {
    await this.findScoped(actor, id);
    if (!connectionPolicy.operateSession(actor)) throw forbidden();
    const health = await connectionHealth(this.db, actor.companyId, id);
    if (!health) throw notFound("ERR_NO_WAPP_FOUND");
    return health;
  }

  /**
   * POST /whatsappsession/:id/pairing-code (issue 21): the session must be waiting for a pairing (QR shown)
   * in this process; the connection is started here first when nobody runs it.
   */
  async pairingCode(actor: Actor, id: number, phoneDigits: string): Promise<PairingCodeDTO> {
    const row = await this.findScoped(actor, id);
    if (!connectionPolicy.operateSession(actor)) throw forbidden();
    if (!this.channels.provider(row.channel)) throw new AppError("ERR_CHANNEL_UNAVAILABLE", 400, { channel: row.channel });
    // Another process running the session answers through the session relay (issue 11, scale-out).
    const relay = sessionRelayOf(this.ctx);
    const elsewhere = await relay.ownedElsewhere(id);
    if (!this.channels.isLocal(id) && !elsewhere && row.status !== "CONNECTED") await this.runCommand(actor.companyId, id, "start", false);
    try {
      const { code, expiresAt } = await relay.pairingCode(actor.companyId, id, phoneDigits);
      return { code, expiresAt: expiresAt.toISOString() };
    } catch (err) {
      if (!(err instanceof ChannelError)) throw err;
      if (err.code === "UNSUPPORTED" && !this.channels.isLocal(id) && !elsewhere) throw new AppError("ERR_WAPP_NOT_INITIALIZED", 400);
      if (err.code === "UNSUPPORTED" && row.channel === "cloud-api") throw new AppError("ERR_CHANNEL_UNAVAILABLE", 400, { channel: row.channel });
      throw new AppError("ERR_WAPP_NOT_PAIRING", 409);
    }
  }

  private async runCommand(companyId: number, id: number, command: ChannelCommand, quiet: boolean): Promise<void> {
    try {
      await this.channels.command(companyId, id, command);
    } catch (err) {
      if (quiet) {
        this.channels.log.error({ err, connectionId: id }, "could not start the new connection");
        return;
      }
      if (err instanceof ChannelError) throw new AppError("ERR_WAPP_NOT_INITIALIZED", 400);
      throw err;
    }
  }

  private async publishUpdated(companyId: number, rows: ConnectionRow[]): Promise<void> {
    if (rows.length === 0) return;
    for (const connection of await presentConnections(this.db, rows, { admin: true }))
      this.ctx.events.publish({ type: "connections.updated", companyId, connection });
  }

  private async withNameGuard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (isUniqueViolation(err, "connections_company_name_uq")) throw new AppError("ERR_DUPLICATED_CONNECTION", 400);
      if (isUniqueViolation(err, "connections_channel_account_uq")) throw new AppError("ERR_CLOUD_API_NUMBER_IN_USE", 409);
      throw err;
    }
  }
}
