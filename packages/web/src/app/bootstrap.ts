import { PAGE_ACCESS } from "@balcao/shared/pageAccess";

/**
 * What the entry (app/main.tsx) starts (issue 20). With a stored token, the whole app: it checks the token
 * (GET /auth/me) and leaves /login for / when it still works, as before. Without one, the public pages of the
 * router (/signup, the simulator's public link) are the app too; any other page would only send the visitor
 * to /login (PrivateRoute), so the light login shell shows there at once, on /login, without the app.
 * The public pages are those of PAGE_ACCESS, the table the router's guards read; the entry imports that file
 * alone (not the shared package's index and its schemas), so the login shell stays light.
 */
export type Boot = { mode: "app" } | { mode: "login"; path: "/login" };

/** A route pattern of PAGE_ACCESS ("/simulator/:connectionId?") as a regular expression over a lower-case path. */
function patternRegExp(pattern: string): RegExp {
  const segments = pattern
    .split("/")
    .filter(Boolean)
    .map((segment) => {
      if (segment.startsWith(":")) return segment.endsWith("?") ? "(?:/[^/]+)?" : "/[^/]+";
      return `/${segment.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`;
    });
  return new RegExp(`^${segments.join("")}$`);
}

/** Public pages of the router besides /login, which the app itself shows without a session. */
const PUBLIC_APP_PAGES = Object.entries(PAGE_ACCESS)
  .filter(([pattern, level]) => level === "public" && pattern !== "/login")
  .map(([pattern]) => patternRegExp(pattern));

export function boot(pathname: string, token: string | null): Boot {
  if (token) return { mode: "app" };
  // The router matches paths case-insensitively, with or without a trailing slash.
  const path = pathname.toLowerCase().replace(/\/+$/, "");
  const isPublic = PUBLIC_APP_PAGES.some((page) => page.test(path));
  return isPublic ? { mode: "app" } : { mode: "login", path: "/login" };
}
