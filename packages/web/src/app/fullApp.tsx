import type { UserDTO } from "@balcao/shared";
import { enqueueSnackbar } from "../components/toasts";
import { StrictMode, useEffect } from "react";
import type { Root } from "react-dom/client";
import { BrowserRouter, useRoutes } from "react-router";
import { landingAfterLogin } from "../features/auth/afterLogin";
import { AppErrorBoundary } from "./AppErrorBoundary";
import i18n, { initialLanguage, loadInitialLanguage, loadLanguage } from "./i18n";
import { AppProviders, createQueryClient } from "./providers";
import { routes } from "./router";

/** The whole app (issue 20: a chunk of its own, which the light login shell loads after it shows). */
export interface StartOptions {
  /** The user the login shell just logged in: the app starts where a login leads (landingAfterLogin). */
  user?: UserDTO;
}

/** Downloads what startApp waits for (the start-up language's texts) while the login shell is on screen. */
export function prefetchApp(): void {
  void loadLanguage(initialLanguage()).catch(() => undefined);
}

/** The warning of a login (subscription ending, billing only), once the toasts' provider is up. */
function LoginWarning({ warning }: { warning: { text: string; shown: boolean } }) {
  useEffect(() => {
    if (warning.shown) return; // StrictMode runs effects twice in development
    warning.shown = true;
    enqueueSnackbar(warning.text, { variant: "warning" });
  }, [warning]);
  return null;
}

/**
 * The routes under a declarative router (BrowserRouter), not a data router (createBrowserRouter): the app uses no
 * loaders, actions or fetchers, and the data router's code weighed 16 KB gzipped on every page (issue 20).
 */
function AppRoutes() {
  return useRoutes(routes);
}

export async function startApp(root: Root, { user }: StartOptions = {}): Promise<void> {
  // The texts of the start-up language come first (one small chunk), so no page renders untranslated keys.
  await loadInitialLanguage();
  let warning: { text: string; shown: boolean } | undefined;
  if (user) {
    const landing = landingAfterLogin(user, (key, values) => i18n.t(key, values));
    if (landing.warning) warning = { text: landing.warning, shown: false };
    // As the app's login route navigates (replace): the router starts on the landing page.
    window.history.replaceState(null, "", landing.path);
  }
  root.render(
    <StrictMode>
      <AppProviders queryClient={createQueryClient()} initialUser={user}>
        <BrowserRouter>
          <AppErrorBoundary>
            <AppRoutes />
          </AppErrorBoundary>
        </BrowserRouter>
        {warning && <LoginWarning warning={warning} />}
      </AppProviders>
    </StrictMode>,
  );
}
