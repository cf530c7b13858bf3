/**
 * What the entry (app/main.tsx) starts (issue 20). With a stored token, the whole app: it checks the token
 * (GET /auth/me) and leaves /login for / when it still works, as before. Without one, the public pages of the
 * router (/signup, the simulator's public link) are the app too; any other page would only send the visitor
 * to /login (PrivateRoute), so the light login shell shows there at once, on /login, without the app.
 */
export type Boot = { mode: "app" } | { mode: "login"; path: "/login" };

/** Public routes of app/router.tsx besides /login, which the app itself shows without a session. */
const PUBLIC_APP_ROUTES = ["/signup", "/simulator"];

export function boot(pathname: string, token: string | null): Boot {
  if (token) return { mode: "app" };
  // The router matches paths case-insensitively, with or without a trailing slash.
  const path = pathname.toLowerCase().replace(/\/+$/, "");
  const isPublic = PUBLIC_APP_ROUTES.some((route) => path === route || path.startsWith(`${route}/`));
  return isPublic ? { mode: "app" } : { mode: "login", path: "/login" };
}
