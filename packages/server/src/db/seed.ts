import { count, eq } from "drizzle-orm";
import type { AppContext } from "../context";
import { insertDefaultSettings } from "../modules/companies/service";
import { companies, plans, users } from "./schema";

export const DEFAULT_PLANS = [
  { name: "Básico", users: 3, connections: 1, queues: 3, value: 49.9 },
  { name: "Profissional", users: 10, connections: 3, queues: 10, value: 149.9 },
  { name: "Empresarial", users: 50, connections: 10, queues: 50, value: 499.9 },
];

const PLATFORM_COMPANY = "Balcão";

/**
 * Idempotent start-up data: the default plans on an empty plan table, and the first platform super
 * user from ADMIN_EMAIL/ADMIN_PASSWORD on a database that has no user yet.
 */
export async function seed(ctx: AppContext): Promise<{ createdAdmin: boolean }> {
  const { db } = ctx.database;
  const [{ value: planCount }] = (await db.select({ value: count() }).from(plans)) as [{ value: number }];
  if (planCount === 0) await db.insert(plans).values(DEFAULT_PLANS).onConflictDoNothing();

  const { adminEmail, adminPassword } = ctx.config;
  if (!adminEmail || !adminPassword) return { createdAdmin: false };
  const [{ value: userCount }] = (await db.select({ value: count() }).from(users)) as [{ value: number }];
  if (userCount > 0) return { createdAdmin: false };

  const passwordHash = await ctx.passwords.hash(adminPassword);
  await db.transaction(async (tx) => {
    const [topPlan] = await tx.select({ id: plans.id }).from(plans).orderBy(plans.value).limit(1).offset(DEFAULT_PLANS.length - 1);
    const [existing] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.name, PLATFORM_COMPANY)).limit(1);
    const companyId =
      existing?.id ??
      (
        await tx
          .insert(companies)
          .values({ name: PLATFORM_COMPANY, email: adminEmail.toLowerCase(), planId: topPlan?.id ?? null, dueDate: null, timeZone: ctx.config.defaultTimeZone })
          .returning({ id: companies.id })
      )[0]!.id;
    await insertDefaultSettings(tx, companyId);
    await tx.insert(users).values({
      companyId,
      name: "Administrador",
      email: adminEmail.toLowerCase(),
      passwordHash,
      profile: "admin",
      super: true,
    });
  });
  return { createdAdmin: true };
}
