import { ONBOARDING_STEPS, type OnboardingDTO, type OnboardingStepKey } from "@balcao/shared";
import { sql } from "drizzle-orm";
import type { AppContext } from "../../context";
import { settings } from "../../db/schema";

/** The steps and the answer's shape live in @balcao/shared (the OpenAPI document's schema, issue 19). */
export { ONBOARDING_STEPS, type OnboardingDTO };

/** The settings row that records the dismissal: one per company, not one of the keys PUT /settings accepts. */
export const ONBOARDING_DISMISSED_KEY = "onboardingDismissed";

/**
 * Each step is read from the company's own rows in one statement, every sub-query scoped by company_id:
 * - connection: a connection whose status is CONNECTED (a simulator counts);
 * - queue: any queue;
 * - attendant: another user than the company's first one (any profile);
 * - reply: an outgoing message in a ticket that has an attendant (the bot's and campaigns' messages go out
 *   in tickets without one).
 */
export class OnboardingService {
  constructor(private readonly ctx: AppContext) {}

  async state(companyId: number): Promise<OnboardingDTO> {
    const result = await this.ctx.database.db.execute(
      sql`SELECT
         EXISTS (SELECT 1 FROM connections c WHERE c.company_id = ${companyId} AND c.status = 'CONNECTED') AS connection,
         EXISTS (SELECT 1 FROM queues q WHERE q.company_id = ${companyId}) AS queue,
         (SELECT count(*) FROM (SELECT 1 FROM users u WHERE u.company_id = ${companyId} LIMIT 2) two) >= 2 AS attendant,
         EXISTS (
           SELECT 1 FROM messages m JOIN tickets t ON t.id = m.ticket_id AND t.company_id = ${companyId}
           WHERE m.company_id = ${companyId} AND m.from_me AND t.user_id IS NOT NULL
         ) AS reply,
         EXISTS (SELECT 1 FROM settings s WHERE s.company_id = ${companyId} AND s.key = ${ONBOARDING_DISMISSED_KEY} AND s.value = 'true') AS dismissed`,
    );
    type Row = Record<OnboardingStepKey | "dismissed", boolean>;
    const row = (Array.isArray(result) ? result[0] : (result as unknown as { rows: Row[] }).rows[0]) as Row;
    const steps = ONBOARDING_STEPS.map((key) => ({ key, done: row[key] }));
    return { steps, completed: steps.every((s) => s.done), dismissed: row.dismissed };
  }

  /** Hides (or shows again) the checklist for every admin of the company. */
  async setDismissed(companyId: number, dismissed: boolean): Promise<OnboardingDTO> {
    const value = dismissed ? "true" : "false";
    await this.ctx.database.db
      .insert(settings)
      .values({ companyId, key: ONBOARDING_DISMISSED_KEY, value })
      .onConflictDoUpdate({ target: [settings.companyId, settings.key], set: { value, updatedAt: new Date() } });
    return this.state(companyId);
  }
}
