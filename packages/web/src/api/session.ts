/**
 * The browser side of a login (spec §4): the access token plus the company and user ids, kept in
 * localStorage so a reload keeps the session. The refresh token lives in an httpOnly cookie the
 * server manages. Listeners hear when the session ends (401, logout, expired subscription).
 */
import type { ApiErrorBody } from "@balcao/shared";

const TOKEN_KEY = "token";
const COMPANY_KEY = "companyId";
const USER_KEY = "userId";

export type SessionEndReason = "unauthorized" | "subscriptionExpired" | "logout" | "anotherLogin";
type Listener = (reason: SessionEndReason, body?: ApiErrorBody) => void;

const listeners = new Set<Listener>();
/** A billing-only session (expired company's admin) lives with 402s from the locked routes (issue 13). */
let billingOnly = false;

export const sessionStore = {
  getToken(): string | null {
    return localStorage.getItem(TOKEN_KEY);
  },
  setToken(token: string): void {
    localStorage.setItem(TOKEN_KEY, token);
  },
  save(token: string, ids: { companyId: number; userId: number }): void {
    localStorage.setItem(TOKEN_KEY, token);
    localStorage.setItem(COMPANY_KEY, String(ids.companyId));
    localStorage.setItem(USER_KEY, String(ids.userId));
  },
  /** Forgets the stored login and tells every listener why. */
  end(reason: SessionEndReason, body?: ApiErrorBody): void {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(COMPANY_KEY);
    localStorage.removeItem(USER_KEY);
    for (const listener of listeners) listener(reason, body);
  },
  setBillingOnly(value: boolean): void {
    billingOnly = value;
  },
  isBillingOnly(): boolean {
    return billingOnly;
  },
  onEnd(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
