import { rm } from "node:fs/promises";
import path from "node:path";
import { and, asc, eq, ne, or, sql } from "drizzle-orm";
import {
  addDays,
  DEFAULT_COMPANY_SETTINGS,
  PAGE_SIZE,
  SIGNUP_TRIAL_DAYS,
  companyCreateBody,
  companyUpdateBody,
  signupBody,
  todayIn,
  type CompanyDTO,
  type CompanyListResponse,
  type ListQuery,
  type SettingDTO,
  type SignupResponse,
} from "@balcao/shared";
import type { z } from "zod";
import type { AppContext } from "../../context";
import { isUniqueViolation, type Tx } from "../../db/client";
import { companies, connections, plans, settings, users } from "../../db/schema";
import { containsPattern, foldColumn } from "../../db/search";
import { requireSuper } from "../../http/auth";
import { AppError, notFound } from "../../http/errors";
import type { Actor } from "../auth/service";
import { lockPlanForUse } from "../plans/service";
import { listCompanySettings, saveCompanySetting } from "../settings/service";
import "./events";
import { presentCompany } from "./presenter";

type SignupInput = z.output<typeof signupBody>;
type CreateInput = z.output<typeof companyCreateBody>;
type UpdateInput = z.output<typeof companyUpdateBody>;

export async function insertDefaultSettings(tx: Tx, companyId: number): Promise<void> {
  await tx
    .insert(settings)
    .values(Object.entries(DEFAULT_COMPANY_SETTINGS).map(([key, value]) => ({ companyId, key, value })))
    .onConflictDoNothing();
}

/**
 * Whether public sign-up is open: the `userCreation` setting of the platform company (the company of the
 * oldest super user). Open when there is no super user or no such row, as before the setting was honoured.
 */
export async function userCreationEnabled(tx: Tx): Promise<boolean> {
  const [row] = await tx
    .select({ value: settings.value })
    .from(users)
    .innerJoin(settings, and(eq(settings.companyId, users.companyId), eq(settings.key, "userCreation")))
    .where(eq(users.super, true))
    .orderBy(asc(users.id))
    .limit(1);
  return row?.value !== "disabled";
}

const companyWithPlan = { company: companies, plan: { id: plans.id, name: plans.name, value: plans.value } };

export class CompaniesService {
  constructor(private readonly ctx: AppContext) {}

  private get db() {
    return this.ctx.database.db;
  }

  /**
   * Self sign-up (spec §4): the server alone decides the trial — MENSAL, due in 3 days, active,
   * campaigns on — whatever the client sends (reference defect 5). Closed while the platform's
   * `userCreation` setting is disabled (ERR_USER_CREATION_DISABLED).
   */
  async signup(input: SignupInput): Promise<SignupResponse> {
    const passwordHash = await this.ctx.passwords.hash(input.password);
    const dueDate = addDays(todayIn(this.ctx.config.defaultTimeZone), SIGNUP_TRIAL_DAYS);
    return this.withUniqueGuard(() =>
      this.db.transaction(async (tx) => {
        if (!(await userCreationEnabled(tx))) throw new AppError("ERR_USER_CREATION_DISABLED");
        const plan = await lockPlanForUse(tx, input.planId);
        const { companyId, userId } = await this.insertCompany(tx, {
          name: input.name,
          email: input.email,
          phone: input.phone,
          planId: plan.id,
          status: true,
          campaignsEnabled: true,
          recurrence: "MENSAL",
          dueDate,
          passwordHash,
        });
        return { companyId, userId };
      }),
    );
  }

  /** The company row, its first admin and its default settings; name and email checked first for clear errors. */
  private async insertCompany(
    tx: Tx,
    values: Omit<typeof companies.$inferInsert, "timeZone"> & { passwordHash: string; campaignsEnabled: boolean },
  ): Promise<{ companyId: number; userId: number }> {
    const { passwordHash, ...company } = values;
    const [emailTaken] = await tx.select({ id: users.id }).from(users).where(eq(users.email, company.email!)).limit(1);
    if (emailTaken) throw new AppError("ERR_DUPLICATED_EMAIL", 400);
    await this.assertNameFree(tx, company.name);
    const [row] = await tx
      .insert(companies)
      .values({ ...company, timeZone: this.ctx.config.defaultTimeZone })
      .returning({ id: companies.id });
    const companyId = row!.id;
    const [user] = await tx
      .insert(users)
      .values({ companyId, name: company.name.slice(0, 50), email: company.email!, passwordHash, profile: "admin" })
      .returning({ id: users.id });
    await insertDefaultSettings(tx, companyId);
    // The company column and the setting the menu reads (spec §2) say the same thing.
    await tx
      .update(settings)
      .set({ value: String(values.campaignsEnabled) })
      .where(and(eq(settings.companyId, companyId), eq(settings.key, "campaignsEnabled")));
    return { companyId, userId: user!.id };
  }

  private async assertNameFree(tx: Tx, name: string, exceptId?: number): Promise<void> {
    const [taken] = await tx
      .select({ id: companies.id })
      .from(companies)
      .where(and(sql`lower(${companies.name}) = lower(${name})`, exceptId ? ne(companies.id, exceptId) : undefined))
      .limit(1);
    if (taken) throw new AppError("ERR_DUPLICATED_COMPANY", 400);
  }

  private async withUniqueGuard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (isUniqueViolation(err, "users_email_uq")) throw new AppError("ERR_DUPLICATED_EMAIL", 400);
      if (isUniqueViolation(err, "companies_name_uq")) throw new AppError("ERR_DUPLICATED_COMPANY", 400);
      throw err;
    }
  }

  // ─── Super user: the Companies tab ─────────────────────────────────────────────────────────────

  /** GET /companies: 20 per page by name; search on name or email ignoring case and accents. */
  async list(actor: Actor, query: ListQuery): Promise<CompanyListResponse> {
    requireSuper(actor);
    const pattern = query.searchParam ? containsPattern(query.searchParam) : undefined;
    const rows = await this.db
      .select(companyWithPlan)
      .from(companies)
      .leftJoin(plans, eq(plans.id, companies.planId))
      .where(pattern ? or(sql`${foldColumn(companies.name)} like ${pattern}`, sql`${foldColumn(companies.email)} like ${pattern}`) : undefined)
      .orderBy(asc(sql`lower(${companies.name})`), asc(companies.id))
      .limit(PAGE_SIZE + 1)
      .offset((query.pageNumber - 1) * PAGE_SIZE);
    return { companies: rows.slice(0, PAGE_SIZE).map((r) => presentCompany(r.company, r.plan)), hasMore: rows.length > PAGE_SIZE };
  }

  /** GET /companies/list: every company, by name (the super user's pickers). */
  async listAll(actor: Actor): Promise<CompanyDTO[]> {
    requireSuper(actor);
    const rows = await this.db
      .select(companyWithPlan)
      .from(companies)
      .leftJoin(plans, eq(plans.id, companies.planId))
      .orderBy(asc(sql`lower(${companies.name})`), asc(companies.id))
      .limit(10_000);
    return rows.map((r) => presentCompany(r.company, r.plan));
  }

  private async find(id: number, tx?: Tx): Promise<CompanyDTO> {
    const [row] = await (tx ?? this.db)
      .select(companyWithPlan)
      .from(companies)
      .leftJoin(plans, eq(plans.id, companies.planId))
      .where(eq(companies.id, id))
      .limit(1);
    if (!row) throw notFound("ERR_NO_COMPANY_FOUND");
    return presentCompany(row.company, row.plan);
  }

  async show(actor: Actor, id: number): Promise<CompanyDTO> {
    requireSuper(actor);
    return this.find(id);
  }

  /** POST /companies: the company and its first admin (named after the company, logging in with its email). */
  async create(actor: Actor, input: CreateInput): Promise<CompanyDTO> {
    requireSuper(actor);
    const passwordHash = await this.ctx.passwords.hash(input.password);
    const company = await this.withUniqueGuard(() =>
      this.db.transaction(async (tx) => {
        const plan = await lockPlanForUse(tx, input.planId);
        const { companyId } = await this.insertCompany(tx, {
          name: input.name,
          email: input.email,
          phone: input.phone,
          planId: plan.id,
          status: input.status,
          campaignsEnabled: input.campaignsEnabled,
          recurrence: input.recurrence,
          dueDate: input.dueDate,
          passwordHash,
        });
        return this.find(companyId, tx);
      }),
    );
    this.ctx.events.publish({ type: "companies.created", companyId: company.id, company });
    return company;
  }

  /**
   * PUT /companies/:id: any subset of the fields; `dueDate: null` means no due date. Deactivating a company or
   * moving its due date into the past locks its users out on their next request (402), as expiry does.
   */
  async update(actor: Actor, id: number, input: UpdateInput): Promise<CompanyDTO> {
    requireSuper(actor);
    const { previous, company } = await this.withUniqueGuard(() =>
      this.db.transaction(async (tx) => {
        const [locked] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, id)).for("update");
        if (!locked) throw notFound("ERR_NO_COMPANY_FOUND");
        const before = await this.find(id, tx);
        if (input.name !== undefined) await this.assertNameFree(tx, input.name, id);
        if (input.planId !== undefined) await lockPlanForUse(tx, input.planId);
        await tx
          .update(companies)
          .set({
            ...(input.name !== undefined && { name: input.name }),
            ...(input.email !== undefined && { email: input.email }),
            ...(input.phone !== undefined && { phone: input.phone }),
            ...(input.planId !== undefined && { planId: input.planId }),
            ...(input.status !== undefined && { status: input.status }),
            ...(input.dueDate !== undefined && { dueDate: input.dueDate }),
            ...(input.recurrence !== undefined && { recurrence: input.recurrence }),
            ...(input.campaignsEnabled !== undefined && { campaignsEnabled: input.campaignsEnabled }),
            updatedAt: new Date(),
          })
          .where(eq(companies.id, id));
        return { previous: before, company: await this.find(id, tx) };
      }),
    );
    if (input.campaignsEnabled !== undefined && previous.campaignsEnabled !== company.campaignsEnabled)
      await saveCompanySetting(this.ctx, id, "campaignsEnabled", String(company.campaignsEnabled));
    this.ctx.events.publish({ type: "companies.updated", companyId: id, company, previous });
    return company;
  }

  /**
   * DELETE /companies/:id: ends the company's WhatsApp sessions held here (others end when their owner's lease
   * renewal finds the row gone), deletes the company with every row it owns (foreign keys cascade: users and
   * their sessions, tickets, messages, contacts…) and its stored files. A super user cannot delete its own company.
   */
  async remove(actor: Actor, id: number): Promise<void> {
    requireSuper(actor);
    if (id === actor.companyId) throw new AppError("ERR_CANNOT_DELETE_OWN_COMPANY");
    const company = await this.find(id);
    const owned = await this.db.select({ id: connections.id }).from(connections).where(eq(connections.companyId, id));
    for (const connection of owned) await this.ctx.channels.forget(id, connection.id);
    const deleted = await this.db.delete(companies).where(eq(companies.id, id)).returning({ id: companies.id });
    if (deleted.length === 0) throw notFound("ERR_NO_COMPANY_FOUND");
    await rm(path.join(this.ctx.config.dataDir, "media", String(id)), { recursive: true, force: true });
    this.ctx.events.publish({ type: "companies.deleted", companyId: id, companyName: company.name });
  }

  // ─── Super user: any company's settings ────────────────────────────────────────────────────────

  async settings(actor: Actor, id: number): Promise<SettingDTO[]> {
    requireSuper(actor);
    await this.find(id);
    return listCompanySettings(this.db, id, true);
  }

  async saveSetting(actor: Actor, id: number, key: string, value: string): Promise<SettingDTO> {
    requireSuper(actor);
    await this.find(id);
    return saveCompanySetting(this.ctx, id, key, value);
  }
}
