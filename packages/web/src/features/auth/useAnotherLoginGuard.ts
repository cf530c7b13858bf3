import { ANOTHER_LOGIN_LOGOUT_DELAY_MS, type AnotherLoginEvent } from "@balcao/shared";
import { enqueueSnackbar } from "../../components/toasts";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { decodeJwtPayload } from "../../api/jwt";
import { sessionStore } from "../../api/session";
import { useSocketEvent } from "../../api/SocketProvider";

/** Another device logged in with this account: warn, then log out after 1 s (spec §4). */
export function useAnotherLoginGuard(): void {
  const { t } = useTranslation();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  useSocketEvent<AnotherLoginEvent>("auth", (payload) => {
    const currentSid = decodeJwtPayload(sessionStore.getToken())?.sid;
    if (!payload?.sessionId || payload.sessionId === currentSid) return;
    enqueueSnackbar(t("auth.anotherLogin"), { variant: "error" });
    clearTimeout(timer.current);
    timer.current = setTimeout(() => sessionStore.end("anotherLogin"), ANOTHER_LOGIN_LOGOUT_DELAY_MS);
  });
}
