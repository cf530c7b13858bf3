import { z } from "zod";

/** The first-run steps of a new company (issue 16), in the order the checklist shows them. */
export const ONBOARDING_STEPS = ["connection", "queue", "attendant", "reply"] as const;
export type OnboardingStepKey = (typeof ONBOARDING_STEPS)[number];

/** GET and PUT /onboarding. */
export const onboardingDto = z.object({
  steps: z.array(z.object({ key: z.enum(ONBOARDING_STEPS), done: z.boolean() })),
  /** Every step is done. */
  completed: z.boolean(),
  /** An admin of the company hid the checklist (stored per company, see docs/decisions.md). */
  dismissed: z.boolean(),
});
export type OnboardingDTO = z.infer<typeof onboardingDto>;
