import type { AuthResponse, LoginBody, UserDTO } from "@balcao/shared";
import { api } from "../../api/client";
import { sessionStore } from "../../api/session";

/**
 * POST /auth/login and keep the session in this browser (spec §4: token, company and user ids; the server sets
 * the refresh cookie). Shared by the SessionProvider and the light login page, which runs without it.
 */
export async function logIn(body: LoginBody): Promise<UserDTO> {
  const data = await api.post<AuthResponse>("/auth/login", body, { anonymous: true });
  sessionStore.save(data.token, { companyId: data.user.companyId, userId: data.user.id });
  return data.user;
}
