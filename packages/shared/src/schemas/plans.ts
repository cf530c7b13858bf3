import { z } from "zod";
import { boundedText, MSG } from "./common";

/** The price mask's ceiling (spec §5): up to 7 integer digits, 2 decimals, no negatives. */
export const PLAN_PRICE_MAX = 9_999_999.99;
/** Limits a plan may set; every plan allows at least one user, connection and queue. */
export const PLAN_LIMIT_MAX = 100_000;

const planLimit = z.coerce.number({ error: MSG.required }).int("Invalid number").min(1, "Invalid number").max(PLAN_LIMIT_MAX, "Invalid number");

/**
 * The plan price as the form sends it: a number, or a string with a dot decimal ("1234.56"; spec §5 says the
 * comma of the mask becomes a dot). At most 2 decimals and 7 integer digits; never negative.
 */
export const planPriceField = z
  .union(
    [
      z.number(),
      z
        .string()
        .trim()
        .regex(/^\d{1,7}(\.\d{1,2})?$/, "Invalid price")
        .transform(Number),
    ],
    { error: "Invalid price" },
  )
  .refine((v) => Number.isFinite(v) && v >= 0 && v <= PLAN_PRICE_MAX, "Invalid price")
  .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, "Invalid price")
  .transform((v) => Math.round(v * 100) / 100);

export const planCreateBody = z.object({
  name: boundedText(2, 100),
  users: planLimit,
  connections: planLimit,
  queues: planLimit,
  value: planPriceField,
});
export type PlanCreateBody = z.input<typeof planCreateBody>;

export const planUpdateBody = planCreateBody.partial();
export type PlanUpdateBody = z.input<typeof planUpdateBody>;

export const planDto = z.object({
  id: z.number().int(),
  name: z.string(),
  users: z.number().int(),
  connections: z.number().int(),
  queues: z.number().int(),
  /** Monthly price in BRL. */
  value: z.number(),
});
export type PlanDTO = z.infer<typeof planDto>;

/** GET /plans/all (super): every plan with how many companies use it (a plan in use cannot be deleted). */
export const planWithUsageDto = planDto.extend({ companiesCount: z.number().int() });
export type PlanWithUsageDTO = z.infer<typeof planWithUsageDto>;
