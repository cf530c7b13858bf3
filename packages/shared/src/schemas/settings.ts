import { z } from "zod";
import { CONNECTION_ALERT_MINUTES } from "./connectionHealth";

export const settingKeyParams = z.object({
  key: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z][A-Za-z0-9_]*$/),
});
export const settingUpdateBody = z.object({ value: z.string().max(2000) });

export const settingDto = z.object({
  key: z.string(),
  value: z.string(),
});
export type SettingDTO = z.infer<typeof settingDto>;

const ENABLED_DISABLED = ["enabled", "disabled"] as const;

/**
 * Every company setting key the API accepts, with its allowed values (spec §3, §9); `null` = free
 * text. `allTicket` is not here: it belongs to each user (PUT /users/:id).
 */
export const SETTING_VALUES: Record<string, readonly string[] | null> = {
  userRating: ENABLED_DISABLED,
  call: ENABLED_DISABLED,
  CheckMsgIsGroup: ENABLED_DISABLED,
  sendGreetingAccepted: ENABLED_DISABLED,
  sendMsgTransfTicket: ENABLED_DISABLED,
  userCreation: ENABLED_DISABLED,
  scheduleType: ["disabled", "queue", "company"],
  chatBotType: ["text"],
  campaignsEnabled: ["true", "false"],
  // Minutes out of CONNECTED before a connection alert (issue 21); "0" = never.
  connectionAlertMinutes: CONNECTION_ALERT_MINUTES,
  // A reply sent while its connection is down: waits and goes once it is back, or fails with retry (issue 21).
  sendWhileDisconnected: ["queue", "fail"],
  // Integration keys of spec §3 (ISP billing integrations): free text, admins only.
  ipixc: null,
  tokenixc: null,
  ipmkauth: null,
  clientidmkauth: null,
  clientsecretmkauth: null,
  asaas: null,
};

/** Keys whose values are credentials: GET /settings returns them to admins only. */
export const SECRET_SETTING_KEYS: readonly string[] = ["ipixc", "tokenixc", "ipmkauth", "clientidmkauth", "clientsecretmkauth", "asaas"];
