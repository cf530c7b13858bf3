import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { and, count, eq } from "drizzle-orm";
import { addDays, todayIn } from "@balcao/shared";
import type { AppContext } from "./context";
import { insertDefaultSettings } from "./modules/companies/service";
import { companies, connectionAuth, connections, plans, queues, settings, users } from "./db/schema";

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
export async function seed(ctx: AppContext): Promise<{ createdAdmin: boolean; demo?: { email: string; password: string } }> {
  const { db } = ctx.database;
  const [{ value: planCount }] = (await db.select({ value: count() }).from(plans)) as [{ value: number }];
  if (planCount === 0) await db.insert(plans).values(DEFAULT_PLANS).onConflictDoNothing();
  // The super user first: it is created only on a database without users.
  const admin = await seedAdmin(ctx);
  const demo = await seedDemo(ctx);
  return { ...admin, ...(demo && { demo }) };
}

const DEMO_COMPANY = "Demo";
const DEMO_EMAIL = "demo@balcao.local";

/**
 * Embedded, non-production only: a "Demo" company with an admin (DEMO_EMAIL, random password kept in
 * DATA_DIR/demo.json) and a paired simulator connection that comes up CONNECTED on start.
 * Created once, when no "Demo" company exists; its login is returned on every start to be printed.
 */
async function seedDemo(ctx: AppContext): Promise<{ email: string; password: string } | undefined> {
  const { config } = ctx;
  if (config.databaseUrl || config.env !== "development" || !config.channels.simulatorEnabled) return undefined;
  const { db } = ctx.database;
  const file = path.join(config.dataDir, "demo.json");
  const [existing] = await db.select({ id: companies.id }).from(companies).where(eq(companies.name, DEMO_COMPANY)).limit(1);
  if (existing) return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { email: string; password: string }) : undefined;
  const [{ value: taken }] = (await db.select({ value: count() }).from(users).where(eq(users.email, DEMO_EMAIL))) as [{ value: number }];
  if (taken > 0) return undefined;

  const login = { email: DEMO_EMAIL, password: randomBytes(9).toString("base64url") };
  const passwordHash = await ctx.passwords.hash(login.password);
  await db.transaction(async (tx) => {
    const [plan] = await tx.select({ id: plans.id }).from(plans).where(eq(plans.name, "Profissional")).limit(1);
    const [company] = await tx
      .insert(companies)
      .values({
        name: DEMO_COMPANY,
        email: DEMO_EMAIL,
        planId: plan?.id ?? null,
        dueDate: addDays(todayIn(config.defaultTimeZone), 365),
        timeZone: config.defaultTimeZone,
      })
      .returning({ id: companies.id });
    const companyId = company!.id;
    await insertDefaultSettings(tx, companyId);
    await tx.insert(users).values({ companyId, name: "Demo Admin", email: DEMO_EMAIL, passwordHash, profile: "admin" });
    await tx.insert(queues).values({ companyId, name: "Atendimento", color: "#2e7d32" });
    const [connection] = await tx
      .insert(connections)
      .values({
        companyId,
        name: "Simulador",
        channel: "simulator",
        status: "OPENING",
        isDefault: true,
        token: randomBytes(24).toString("base64url"),
      })
      .returning({ id: connections.id });
    // Already "scanned": the simulator session comes up CONNECTED when the channel manager starts.
    await tx.insert(connectionAuth).values({ connectionId: connection!.id, companyId, creds: { paired: true } });
  });
  mkdirSync(config.dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(login, null, 2), { mode: 0o600 });
  return login;
}

async function seedAdmin(ctx: AppContext): Promise<{ createdAdmin: boolean }> {
  const { db } = ctx.database;

  const { adminEmail, adminPassword } = ctx.config;
  if (!adminEmail || !adminPassword) return { createdAdmin: false };
  const [{ value: userCount }] = (await db.select({ value: count() }).from(users)) as [{ value: number }];
  if (userCount > 0) return { createdAdmin: false };

  const passwordHash = await ctx.passwords.hash(adminPassword);
  await db.transaction(async (tx) => {
    const [topPlan] = await tx
      .select({ id: plans.id })
      .from(plans)
      .orderBy(plans.value)
      .limit(1)
      .offset(DEFAULT_PLANS.length - 1);
    const [existing] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.name, PLATFORM_COMPANY)).limit(1);
    const companyId =
      existing?.id ??
      (
        await tx
          .insert(companies)
          .values({
            name: PLATFORM_COMPANY,
            email: adminEmail.toLowerCase(),
            planId: topPlan?.id ?? null,
            dueDate: null,
            timeZone: ctx.config.defaultTimeZone,
          })
          .returning({ id: companies.id })
      )[0]!.id;
    await insertDefaultSettings(tx, companyId);
    // The platform company's userCreation opens or closes public sign-up: a new platform starts open.
    if (!existing)
      await tx
        .update(settings)
        .set({ value: "enabled" })
        .where(and(eq(settings.companyId, companyId), eq(settings.key, "userCreation")));
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
