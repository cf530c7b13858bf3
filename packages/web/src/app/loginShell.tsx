import { LOCALES, type Language, type UserDTO } from "@balcao/shared";
import { StrictMode, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { Root } from "react-dom/client";
import LoginPage from "../features/auth/LoginPage";
import { logIn } from "../features/auth/logIn";
import { initialLanguage } from "./language";
import { createTranslator, type Messages } from "./translator";

/*
 * The login page before the app (issue 20): what a visitor with no session downloads to see it is React, this
 * module, the light LoginPage and the login texts of one language — no router, MUI, emotion, react-query,
 * the app's toasts or i18next (~70 KB of gzipped JavaScript instead of 275 KB). The app (fullApp.tsx) downloads once
 * the page shows and takes over after the login, on the page a login leads to, or when the visitor follows the
 * link to the sign-up page.
 */

const loginTexts: Record<Language, () => Promise<{ default: object }>> = {
  pt: () => import("../locales/login.pt"),
  en: () => import("../locales/login.en"),
  es: () => import("../locales/login.es"),
};

const loadApp = () => import("./fullApp");

/** How long a toast stays, as the app's (components/toasts.tsx: DEFAULT_TOAST_MS). */
export const TOAST_MS = 3000;
/** The app shows 3 toasts at most (components/toasts.tsx: MAX_TOASTS). */
const MAX_TOASTS = 3;

/**
 * The toast text of a failed login: the server's codes are translated from the error catalogue of
 * @balcao/shared, which downloads with the first failure (it is not needed to show the page).
 */
async function describeError(err: unknown, texts: Messages, language: Language): Promise<string> {
  try {
    const { errorTexts, failureText } = await import("./loginFailure");
    return failureText(err, createTranslator({ ...texts, backendErrors: errorTexts(language) }, language).lookup);
  } catch {
    // The catalogue did not download (offline): the generic text rather than none.
    return createTranslator(texts, language).t("errors.generic");
  }
}

interface Toast {
  id: number;
  text: string;
}

/** The shell's page: the light LoginPage, its error toasts, and the hand-over to the app. */
export function LoginShell({
  texts,
  language,
  startApp,
}: {
  texts: Messages;
  language: Language;
  /** Starts the whole app, with the user a login just let in. */
  startApp: (user?: UserDTO) => Promise<void>;
}): ReactNode {
  const translator = useMemo(() => createTranslator(texts, language), [texts, language]);
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(0);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach(clearTimeout);
  }, []);

  const notify = useCallback((text: string) => {
    const id = nextId.current++;
    setToasts((current) => [...current, { id, text }].slice(-MAX_TOASTS));
    const timer = setTimeout(() => {
      timers.current.delete(timer);
      setToasts((current) => current.filter((toast) => toast.id !== id));
    }, TOAST_MS);
    timers.current.add(timer);
  }, []);

  return (
    <>
      <LoginPage
        t={translator.t}
        locale={LOCALES[language]}
        describeError={(err) => describeError(err, texts, language)}
        notify={notify}
        login={logIn}
        onLoggedIn={(user) => startApp(user)}
        onNavigate={(path) => {
          window.history.pushState(null, "", path);
          void startApp();
        }}
      />
      {toasts.length > 0 && (
        <div className="balcao-toasts">
          {toasts.map((toast) => (
            <div key={toast.id} className="balcao-toast" role="alert">
              {toast.text}
            </div>
          ))}
        </div>
      )}
    </>
  );
}

/** Shows the login page in `root` (the app's own root, which the app renders into once it starts). */
export async function showLoginShell(root: Root): Promise<void> {
  const language = initialLanguage();
  document.documentElement.lang = LOCALES[language];
  const texts = (await loginTexts[language]()).default as Messages;
  const startApp = async (user?: UserDTO) => {
    const { startApp: start } = await loadApp();
    await start(root, { user });
  };
  root.render(
    <StrictMode>
      <LoginShell texts={texts} language={language} startApp={startApp} />
    </StrictMode>,
  );
  // The app downloads while the visitor types (not before the page shows): the login then leads straight in.
  const prefetch = () =>
    void loadApp().then(
      (app) => app.prefetchApp(),
      () => undefined,
    );
  if ("requestIdleCallback" in window) window.requestIdleCallback(prefetch, { timeout: 2000 });
  else setTimeout(prefetch, 500);
}
