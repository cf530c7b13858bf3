import { eq, sql } from "drizzle-orm";
import { addDays, DEFAULT_COMPANY_SETTINGS, SIGNUP_TRIAL_DAYS, signupBody, todayIn, type SignupResponse } from "@balcao/shared";
import type { z } from "zod";
import type { AppContext } from "../../context";
import { isUniqueViolation, type Tx } from "../../db/client";
import { companies, plans, settings, users } from "../../db/schema";
import { AppError } from "../../http/errors";

type SignupInput = z.output<typeof signupBody>;

export async function insertDefaultSettings(tx: Tx, companyId: number): Promise<void> {
  await tx
    .insert(settings)
    .values(Object.entries(DEFAULT_COMPANY_SETTINGS).map(([key, value]) => ({ companyId, key, value })))
    .onConflictDoNothing();
}

export class CompaniesService {
  constructor(private readonly ctx: AppContext) {}

  /**
   * Self sign-up (spec §4): the server alone decides the trial — MENSAL, due in 3 days, active,
   * campaigns on — whatever the client sends (reference defect 5).
   */
  async signup(input: SignupInput): Promise<SignupResponse> {
    const passwordHash = await this.ctx.passwords.hash(input.password);
    const dueDate = addDays(todayIn(this.ctx.config.defaultTimeZone), SIGNUP_TRIAL_DAYS);
    try {
      return await this.ctx.database.db.transaction(async (tx) => {
        const [plan] = await tx.select({ id: plans.id }).from(plans).where(eq(plans.id, input.planId)).limit(1);
        if (!plan) throw new AppError("ERR_NO_PLAN_FOUND", 400);
        const [emailTaken] = await tx.select({ id: users.id }).from(users).where(eq(users.email, input.email)).limit(1);
        if (emailTaken) throw new AppError("ERR_DUPLICATED_EMAIL", 400);
        const [nameTaken] = await tx
          .select({ id: companies.id })
          .from(companies)
          .where(sql`lower(${companies.name}) = lower(${input.name})`)
          .limit(1);
        if (nameTaken) throw new AppError("ERR_DUPLICATED_COMPANY", 400);
        const [company] = await tx
          .insert(companies)
          .values({
            name: input.name,
            email: input.email,
            phone: input.phone,
            planId: plan.id,
            status: true,
            campaignsEnabled: true,
            recurrence: "MENSAL",
            dueDate,
            timeZone: this.ctx.config.defaultTimeZone,
          })
          .returning({ id: companies.id });
        const [user] = await tx
          .insert(users)
          .values({ companyId: company!.id, name: input.name.slice(0, 50), email: input.email, passwordHash, profile: "admin" })
          .returning({ id: users.id });
        await insertDefaultSettings(tx, company!.id);
        return { companyId: company!.id, userId: user!.id };
      });
    } catch (err) {
      if (isUniqueViolation(err, "users_email_uq")) throw new AppError("ERR_DUPLICATED_EMAIL", 400);
      if (isUniqueViolation(err, "companies_name_uq")) throw new AppError("ERR_DUPLICATED_COMPANY", 400);
      throw err;
    }
  }
}
