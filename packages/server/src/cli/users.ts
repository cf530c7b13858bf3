/** `balcao create-super-user` and `balcao reset-password`: platform access without reading the source. */
import { randomBytes } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client";
import { companies, refreshSessions, settings, users } from "../db/schema";
import { writeOutboxEvents } from "../events/bus";
import { createPasswordHasher } from "../modules/auth/passwords";
import { insertDefaultSettings } from "../modules/companies/service";
import { CommandError, configFrom, UsageError, withDatabase, type CliIo, type Command, type ParsedArgs } from "./common";

/** The platform company seed.ts creates with the first super user. */
const PLATFORM_COMPANY = "Balcão";
const MIN_PASSWORD = 8;

function emailOf(args: ParsedArgs): string {
  const email = args.values.email;
  if (typeof email !== "string" || !email) throw new UsageError("--email is required.");
  if (!z.string().email().safeParse(email).success) throw new UsageError(`"${email}" is not an email address.`);
  return email.toLowerCase();
}

/** --password, else BALCAO_PASSWORD, else a generated one (printed once). */
function passwordOf(args: ParsedArgs, io: CliIo): { password: string; generated: boolean } {
  const given = typeof args.values.password === "string" ? args.values.password : io.env.BALCAO_PASSWORD;
  if (given === undefined || given === "") return { password: randomBytes(12).toString("base64url"), generated: true };
  if (given.length < MIN_PASSWORD) throw new UsageError(`The password must have at least ${MIN_PASSWORD} characters.`);
  return { password: given, generated: false };
}

/** The company super users belong to: the existing super users', else "Balcão" (created if missing). */
async function platformCompanyId(db: Db, timeZone: string, email: string): Promise<number> {
  const [superUser] = await db.select({ companyId: users.companyId }).from(users).where(eq(users.super, true)).orderBy(users.id).limit(1);
  if (superUser) return superUser.companyId;
  const [existing] = await db.select({ id: companies.id }).from(companies).where(eq(companies.name, PLATFORM_COMPANY)).limit(1);
  if (existing) return existing.id;
  return db.transaction(async (tx) => {
    const [company] = await tx
      .insert(companies)
      .values({ name: PLATFORM_COMPANY, email, planId: null, dueDate: null, timeZone })
      .returning({ id: companies.id });
    await insertDefaultSettings(tx, company!.id);
    // As seed.ts: a new platform starts with public sign-up open.
    await tx
      .update(settings)
      .set({ value: "enabled" })
      .where(and(eq(settings.companyId, company!.id), eq(settings.key, "userCreation")));
    return company!.id;
  });
}

export const createSuperUserCommand: Command = {
  name: "create-super-user",
  summary: "Create a platform super user (manages plans, companies and billing).",
  usage: "balcao create-super-user --email <email> [--name <name>] [--password <password>]",
  help: [
    "Options:",
    "  --email <email>        the login (must not be taken by any user of any company)",
    '  --name <name>          shown in the app (default "Administrador")',
    "  --password <password>  at least 8 characters; or set BALCAO_PASSWORD (keeps it out of the shell history",
    "                         and the process list); without either a password is generated and printed once",
    "",
    "The user joins the platform company (the existing super users' company). Works while Balcão runs.",
    "Example: BALCAO_PASSWORD='…' npm run cli -- create-super-user --email ops@example.com --name Ops",
  ].join("\n"),
  options: { email: { type: "string" }, name: { type: "string" }, password: { type: "string" } },
  async run(args, io) {
    const email = emailOf(args);
    const name = typeof args.values.name === "string" && args.values.name.trim() ? args.values.name.trim() : "Administrador";
    if (name.length > 50) throw new UsageError("--name has at most 50 characters.");
    const { password, generated } = passwordOf(args, io);
    const config = configFrom(io);
    return withDatabase(io, config, async ({ db }) => {
      const [taken] = await db
        .select({ id: users.id, companyId: users.companyId })
        .from(users)
        .where(sql`lower(${users.email}) = ${email}`)
        .limit(1);
      if (taken) throw new CommandError(`a user with the email ${email} already exists (use reset-password to give it a new password).`);
      const companyId = await platformCompanyId(db, config.defaultTimeZone, email);
      const passwordHash = await createPasswordHasher(config).hash(password);
      await db.insert(users).values({ companyId, name, email, passwordHash, profile: "admin", super: true });
      io.out(`Super user ${email} created.${generated ? ` Password: ${password}  (shown once; change it after the first login)` : ""}`);
      return 0;
    });
  },
};

export const resetPasswordCommand: Command = {
  name: "reset-password",
  summary: "Set a new password for any user and sign out their sessions.",
  usage: "balcao reset-password --email <email> [--password <password>]",
  help: [
    "Options:",
    "  --email <email>        the user's login",
    "  --password <password>  at least 8 characters; or set BALCAO_PASSWORD; without either a password is",
    "                         generated and printed once",
    "",
    "Every open session of that user is revoked (their refresh tokens stop working). Works while Balcão runs.",
    "Example: npm run cli -- reset-password --email admin@balcao.local",
  ].join("\n"),
  options: { email: { type: "string" }, password: { type: "string" } },
  async run(args, io) {
    const email = emailOf(args);
    const { password, generated } = passwordOf(args, io);
    const config = configFrom(io);
    return withDatabase(io, config, async ({ db }) => {
      const [user] = await db
        .select({ id: users.id, companyId: users.companyId, super: users.super })
        .from(users)
        .where(sql`lower(${users.email}) = ${email}`)
        .limit(1);
      if (!user) throw new CommandError(`there is no user with the email ${email}.`);
      const passwordHash = await createPasswordHasher(config).hash(password);
      const revoked = await db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ passwordHash, updatedAt: new Date() })
          .where(and(eq(users.companyId, user.companyId), eq(users.id, user.id)));
        const ended = await tx
          .update(refreshSessions)
          .set({ revokedAt: new Date() })
          .where(and(eq(refreshSessions.companyId, user.companyId), eq(refreshSessions.userId, user.id), isNull(refreshSessions.revokedAt)))
          .returning({ id: refreshSessions.id });
        // A running server closes those sessions' live sockets when it hears this (realtime/revocation.ts), at
        // once rather than at its next periodic sweep: a reset is often for an account someone else holds.
        if (ended.length > 0)
          await writeOutboxEvents(tx, [
            { type: "auth.sessionsEnded", companyId: user.companyId, userId: user.id, sessionIds: ended.map((s) => s.id), reason: "passwordChanged" },
          ]);
        return ended;
      });
      io.out(
        `Password of ${email}${user.super ? " (super user)" : ""} changed; ${revoked.length} session${revoked.length === 1 ? "" : "s"} signed out.` +
          (generated ? ` New password: ${password}  (shown once)` : ""),
      );
      return 0;
    });
  },
};
