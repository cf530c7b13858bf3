import { and, asc, count, eq, inArray, or, sql } from "drizzle-orm";
import {
  PAGE_SIZE,
  type ListQuery,
  type UserCreateBody,
  type UserDTO,
  type UserListResponse,
  type UserSimpleDTO,
  userCreateBody,
  userUpdateBody,
  type UserUpdateBody,
} from "@balcao/shared";
import type { z } from "zod";
import type { AppContext } from "../../context";
import { isUniqueViolation, type Tx } from "../../db/client";
import { companies, plans, queues, userQueues, users } from "../../db/schema";
import { containsPattern, foldColumn } from "../../db/search";
import { AppError, forbidden, notFound } from "../../http/errors";
import type { Actor, AuthService } from "../auth/service";
import { userPolicy } from "./policy";
import { presentUser, presentUsers, presentUserSimple } from "./presenter";

type CreateInput = z.output<typeof userCreateBody>;
type UpdateInput = z.output<typeof userUpdateBody>;

export class UsersService {
  constructor(
    private readonly ctx: AppContext,
    private readonly auth: AuthService,
  ) {}

  private get db() {
    return this.ctx.database.db;
  }

  async list(actor: Actor, query: ListQuery): Promise<UserListResponse> {
    const conditions = [eq(users.companyId, actor.companyId)];
    if (query.searchParam) {
      const pattern = containsPattern(query.searchParam);
      conditions.push(or(sql`${foldColumn(users.name)} like ${pattern}`, sql`${foldColumn(users.email)} like ${pattern}`)!);
    }
    // One row past the page tells whether there is more, without a COUNT.
    const rows = await this.db
      .select()
      .from(users)
      .where(and(...conditions))
      .orderBy(asc(users.name), asc(users.id))
      .limit(PAGE_SIZE + 1)
      .offset((query.pageNumber - 1) * PAGE_SIZE);
    const hasMore = rows.length > PAGE_SIZE;
    return { users: await presentUsers(this.db, rows.slice(0, PAGE_SIZE)), hasMore };
  }

  /** The spec lets a client pass companyId; only a super user's is honoured (reference defect 3). */
  async listSimple(actor: Actor, companyId?: number): Promise<UserSimpleDTO[]> {
    const scope = actor.super && companyId ? companyId : actor.companyId;
    const rows = await this.db
      .select({ id: users.id, name: users.name, email: users.email, profile: users.profile })
      .from(users)
      .where(eq(users.companyId, scope))
      .orderBy(asc(users.name))
      .limit(1000);
    return rows.map(presentUserSimple);
  }

  private async findScoped(actor: Actor, id: number, tx: Tx | undefined = undefined) {
    const [row] = await (tx ?? this.db)
      .select()
      .from(users)
      .where(and(eq(users.id, id), eq(users.companyId, actor.companyId)))
      .limit(1);
    if (!row) throw notFound("ERR_NO_USER_FOUND");
    return row;
  }

  async show(actor: Actor, id: number): Promise<UserDTO> {
    return presentUser(this.db, await this.findScoped(actor, id));
  }

  private async assertQueuesInCompany(tx: Tx, companyId: number, queueIds: number[]): Promise<void> {
    if (queueIds.length === 0) return;
    const unique = [...new Set(queueIds)];
    const found = await tx
      .select({ id: queues.id })
      .from(queues)
      .where(and(eq(queues.companyId, companyId), inArray(queues.id, unique)));
    if (found.length !== unique.length) throw new AppError("ERR_NO_QUEUE_FOUND", 400);
  }

  private async replaceQueues(tx: Tx, companyId: number, userId: number, queueIds: number[]): Promise<void> {
    await tx.delete(userQueues).where(eq(userQueues.userId, userId));
    const unique = [...new Set(queueIds)];
    if (unique.length) await tx.insert(userQueues).values(unique.map((queueId) => ({ companyId, userId, queueId })));
  }

  private async assertEmailFree(tx: Tx, email: string, exceptUserId?: number): Promise<void> {
    const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
    if (taken && taken.id !== exceptUserId) throw new AppError("ERR_DUPLICATED_EMAIL", 400);
  }

  async create(actor: Actor, input: CreateInput): Promise<UserDTO> {
    if (!userPolicy.create(actor)) throw forbidden();
    const passwordHash = await this.ctx.passwords.hash(input.password);
    const created = await this.withEmailGuard(() =>
      this.db.transaction(async (tx) => {
        // Locking the company row serialises concurrent creates, so the plan limit cannot be overrun.
        const [company] = await tx
          .select({ id: companies.id, planUsers: plans.users })
          .from(companies)
          .leftJoin(plans, eq(plans.id, companies.planId))
          .where(eq(companies.id, actor.companyId))
          .for("update", { of: companies });
        if (!company) throw notFound("ERR_NO_COMPANY_FOUND");
        if (company.planUsers && company.planUsers > 0) {
          const [{ value }] = (await tx.select({ value: count() }).from(users).where(eq(users.companyId, actor.companyId))) as [{ value: number }];
          if (value >= company.planUsers) throw new AppError("ERR_USER_LIMIT_REACHED", 400, { limit: company.planUsers });
        }
        await this.assertEmailFree(tx, input.email);
        await this.assertQueuesInCompany(tx, actor.companyId, input.queueIds);
        const [row] = await tx
          .insert(users)
          .values({
            companyId: actor.companyId,
            name: input.name,
            email: input.email,
            passwordHash,
            profile: input.profile,
            allTicket: input.allTicket,
          })
          .returning();
        await this.replaceQueues(tx, actor.companyId, row!.id, input.queueIds);
        return presentUser(tx, row!);
      }),
    );
    this.ctx.events.publish({ type: "users.created", companyId: actor.companyId, user: created });
    return created;
  }

  async update(actor: Actor, id: number, input: UpdateInput): Promise<UserDTO> {
    const target = await this.findScoped(actor, id);
    if (!userPolicy.update(actor, id)) throw forbidden();
    const touchesAccess = input.profile !== undefined || input.queueIds !== undefined || input.allTicket !== undefined;
    const changesAccess =
      (input.profile !== undefined && input.profile !== target.profile) ||
      (input.allTicket !== undefined && input.allTicket !== target.allTicket) ||
      input.queueIds !== undefined;
    if (touchesAccess && changesAccess && !userPolicy.changeAccess(actor)) throw forbidden();
    const passwordHash = input.password ? await this.ctx.passwords.hash(input.password) : undefined;
    const updated = await this.withEmailGuard(() =>
      this.db.transaction(async (tx) => {
        if (input.email && input.email !== target.email) await this.assertEmailFree(tx, input.email, id);
        if (input.queueIds) await this.assertQueuesInCompany(tx, actor.companyId, input.queueIds);
        const [row] = await tx
          .update(users)
          .set({
            ...(input.name !== undefined && { name: input.name }),
            ...(input.email !== undefined && { email: input.email }),
            ...(passwordHash && { passwordHash }),
            // Another user's interface language is theirs to pick: an admin's edit leaves it alone.
            ...(input.language !== undefined && actor.id === id && { language: input.language }),
            ...(userPolicy.changeAccess(actor) && input.profile !== undefined && { profile: input.profile }),
            ...(userPolicy.changeAccess(actor) && input.allTicket !== undefined && { allTicket: input.allTicket }),
            updatedAt: new Date(),
          })
          .where(and(eq(users.id, id), eq(users.companyId, actor.companyId)))
          .returning();
        if (input.queueIds && userPolicy.changeAccess(actor)) await this.replaceQueues(tx, actor.companyId, id, input.queueIds);
        return presentUser(tx, row!);
      }),
    );
    // A password changed by someone else ends that user's sessions; one's own change keeps the current one.
    if (passwordHash) await this.auth.revokeAllSessions(id, "passwordChanged", actor.id === id ? actor.sid : undefined);
    this.ctx.events.publish({ type: "users.updated", companyId: actor.companyId, user: updated });
    return updated;
  }

  async remove(actor: Actor, id: number): Promise<void> {
    await this.findScoped(actor, id);
    if (actor.id === id) throw new AppError("ERR_CANNOT_DELETE_SELF", 400);
    if (!userPolicy.delete(actor, id)) throw forbidden();
    await this.db.delete(users).where(and(eq(users.id, id), eq(users.companyId, actor.companyId)));
    this.ctx.events.publish({ type: "users.deleted", companyId: actor.companyId, userId: id });
  }

  /** Two requests racing on one email both pass the check; the unique index decides, mapped to the spec's 400. */
  private async withEmailGuard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (isUniqueViolation(err, "users_email_uq")) throw new AppError("ERR_DUPLICATED_EMAIL", 400);
      throw err;
    }
  }
}

export type { UserCreateBody, UserUpdateBody };
