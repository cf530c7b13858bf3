import { isBillingOnly, type LoginBody, type UserDTO } from "@balcao/shared";
import { localIsoDate } from "../../app/localDate";
import { useQueryClient } from "@tanstack/react-query";
import { enqueueSnackbar } from "../../components/toasts";
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../../api/client";
import { sessionStore } from "../../api/session";
import { changeLanguage, currentLanguage } from "../../app/i18n";
import { formatDate } from "../../app/format";
import { logIn } from "./logIn";

export interface SessionContextValue {
  user: UserDTO | null;
  /** True while a stored token is being checked at start-up. */
  loading: boolean;
  login: (body: LoginBody) => Promise<UserDTO>;
  logout: () => Promise<void>;
  setUser: (user: UserDTO) => void;
}

export const SessionContext = createContext<SessionContextValue | null>(null);

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error("useSession must be used inside <SessionProvider>");
  return value;
}

/**
 * Holds the logged-in user (spec §4 Session); a stored token is checked with GET /auth/me. `initialUser` is the
 * user the light login page just logged in (app/loginShell.tsx): known already, not asked again.
 */
export function SessionProvider({ initialUser = null, children }: { initialUser?: UserDTO | null; children: ReactNode }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [user, setUserState] = useState<UserDTO | null>(initialUser);
  const [loading, setLoading] = useState(() => initialUser === null && sessionStore.getToken() !== null);

  useEffect(() => {
    if (initialUser || !sessionStore.getToken()) return;
    let cancelled = false;
    api
      .get<UserDTO>("/auth/me")
      .then((me) => !cancelled && setUserState(me))
      .catch(() => undefined)
      .finally(() => !cancelled && setLoading(false));
    return () => {
      cancelled = true;
    };
    // Only at start-up: a later login sets the user itself.
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(
    () =>
      sessionStore.onEnd((reason, body) => {
        setUserState(null);
        queryClient.clear();
        if (reason === "subscriptionExpired") {
          const dueDate = body?.meta?.dueDate;
          enqueueSnackbar(t("auth.subscriptionExpired", { date: dueDate ? formatDate(String(dueDate)) : "" }), { variant: "error" });
        }
      }),
    [queryClient, t],
  );

  const login = useCallback(async (body: LoginBody) => {
    const loggedIn = await logIn(body);
    setUserState(loggedIn);
    return loggedIn;
  }, []);

  const logout = useCallback(async () => {
    await api.delete("/auth/logout").catch(() => undefined);
    sessionStore.end("logout");
  }, []);

  // The language the user picked on any device (issue 16) replaces this browser's default once known.
  const language = user?.language ?? null;
  useEffect(() => {
    if (language && language !== currentLanguage()) void changeLanguage(language);
  }, [language]);

  // The API client keeps a billing-only session on 402s instead of ending it.
  useEffect(() => sessionStore.setBillingOnly(isBillingOnly(user, localIsoDate(new Date()))), [user]);

  const value = useMemo(() => ({ user, loading, login, logout, setUser: setUserState }), [user, loading, login, logout]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
