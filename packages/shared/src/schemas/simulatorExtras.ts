import { z } from "zod";
import { idField } from "./common";
import { CONNECTION_STATUSES } from "../constants";
import { simulatorMessageDto, simulatorPhoneField } from "./connections";

// ─── Simulator groups (issue 21): a subject, several participants, messages from any of them ─────

/** A simulated group id: 18 digits, like WhatsApp's (120363…). */
const simulatorGroupIdField = z.string().regex(/^\d{10,30}$/, "Invalid group");

export const simulatorGroupParams = z.object({ connectionId: idField, groupId: simulatorGroupIdField });

export const simulatorGroupBody = z.object({
  subject: z.string().trim().min(1, "Required").max(100, "Too Long!"),
  participants: z
    .array(z.object({ number: simulatorPhoneField, name: z.string().trim().max(100, "Too Long!").optional() }))
    .min(1, "Required")
    .max(50),
});

export const simulatorGroupRenameBody = z.object({ subject: z.string().trim().min(1, "Required").max(100, "Too Long!") });

export const simulatorGroupMessageBody = z.object({
  /** The participant who writes (one of the group's numbers). */
  from: simulatorPhoneField,
  body: z.string().trim().min(1, "Required").max(4096, "Too Long!"),
});

export const simulatorGroupMessageDto = simulatorMessageDto.extend({ from: z.string().optional() });
export type SimulatorGroupMessageDTO = z.infer<typeof simulatorGroupMessageDto>;

export const simulatorGroupDto = z.object({
  id: z.string(),
  subject: z.string(),
  participants: z.array(z.object({ number: z.string(), name: z.string() })),
  messages: z.array(simulatorGroupMessageDto),
});
export type SimulatorGroupDTO = z.infer<typeof simulatorGroupDto>;

/**
 * The simulated connection drops ("lost": WhatsApp's connection lost, TIMEOUT), comes back ("back"), or is taken
 * over by another WhatsApp Web session ("replaced": DISCONNECTED, pairing kept), issue 21. `replay` (with "back"):
 * the previous late batch of customer messages is delivered again too, as WhatsApp redelivers.
 */
export const simulatorConnectionBody = z.object({ state: z.enum(["lost", "back", "replaced"]), replay: z.boolean().optional() });

export const simulatorConnectionAnswer = z.object({
  status: z.enum(CONNECTION_STATUSES),
  /** With "back": the customer messages delivered in the late batch (held ones, plus the replayed ones). */
  delivered: z.number().optional(),
});
export type SimulatorConnectionAnswer = z.infer<typeof simulatorConnectionAnswer>;
