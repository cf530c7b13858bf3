import { z } from "zod";
import { MSG } from "./common";
import { userDto } from "./users";

export const loginBody = z.object({
  email: z.string({ error: MSG.required }).trim().toLowerCase().min(1, MSG.required).max(254, MSG.tooLong),
  password: z.string({ error: MSG.required }).min(1, MSG.required).max(200, MSG.tooLong),
});
export type LoginBody = z.infer<typeof loginBody>;

export const authResponse = z.object({
  token: z.string(),
  user: userDto,
});
export type AuthResponse = z.infer<typeof authResponse>;

/** Claims of the 15-minute access token. `sid` names the refresh session it belongs to. */
export interface AccessClaims {
  id: number;
  companyId: number;
  profile: string;
  super: boolean;
  sid: string;
}

/** Payload of the `auth` socket event sent to a user's older logins when a new one starts. */
export interface AnotherLoginEvent {
  action: "update";
  user: { id: number; email: string; companyId: number };
  /** The session that replaced the older ones; a client on that session ignores the event. */
  sessionId: string;
}
