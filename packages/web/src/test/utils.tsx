import type { UserDTO } from "@balcao/shared";
import { QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { useLayoutEffect, type ReactElement, type ReactNode } from "react";
import { MemoryRouter, useLocation, useNavigate, useRoutes, type Location, type RouteObject } from "react-router";
import { vi } from "vitest";
import { createQueryClient, UiProviders } from "../app/providers";
import { SessionContext, SessionProvider, type SessionContextValue } from "../features/auth/SessionProvider";

export function makeUser(overrides: Partial<UserDTO> = {}): UserDTO {
  return {
    id: 1,
    name: "Ana Admin",
    email: "ana@acme.test",
    profile: "admin",
    super: false,
    companyId: 10,
    allTicket: "disable",
    online: true,
    queues: [],
    company: {
      id: 10,
      name: "Acme",
      dueDate: "2099-12-31",
      status: true,
      campaignsEnabled: true,
      planId: 1,
      email: "acme@example.com",
      trialExpiration: null,
    },
    language: null,
    createdAt: "2025-01-01T00:00:00.000Z",
    ...overrides,
  };
}

export function fakeSession(user: UserDTO | null, overrides: Partial<SessionContextValue> = {}): SessionContextValue {
  return { user, loading: false, login: vi.fn(), logout: vi.fn(async () => {}), setUser: vi.fn(), ...overrides };
}

export const jsonResponse = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

export interface FetchCall {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** Replaces fetch with a router over "METHOD /path" (query string ignored); records every call. */
export function mockFetch(routes: Record<string, (call: FetchCall) => Response | Promise<Response>>) {
  const calls: FetchCall[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const call: FetchCall = {
      method: init.method ?? "GET",
      url,
      headers: (init.headers ?? {}) as Record<string, string>,
      body: typeof init.body === "string" ? JSON.parse(init.body) : init.body,
    };
    calls.push(call);
    const path = url.split("?")[0];
    const handler = routes[`${call.method} ${path}`];
    if (!handler) return jsonResponse(404, { error: "ERR_NOT_FOUND" });
    return handler(call);
  });
  vi.stubGlobal("fetch", fn);
  return { fn, calls };
}

function Session({ session, children }: { session: SessionContextValue | "real"; children: ReactNode }) {
  return session === "real" ? (
    <SessionProvider>{children}</SessionProvider>
  ) : (
    <SessionContext.Provider value={session}>{children}</SessionContext.Provider>
  );
}

interface RenderOptions {
  session?: SessionContextValue | "real";
  path?: string;
}

/** Where a test's router is, and a way to move it (the app's router is declarative: app/fullApp.tsx). */
export interface TestRouter {
  location(): Location;
  navigate(to: string): void;
}

/** What ProbedRoutes reads from inside the tree, for TestRouter. */
type RouterProbe = { location?: Location; navigate?: (to: string) => void };

function ProbedRoutes({ routes, router }: { routes: RouteObject[]; router: RouterProbe }) {
  const location = useLocation();
  const navigate = useNavigate();
  useLayoutEffect(() => {
    router.location = location;
    router.navigate = (to) => void navigate(to);
  });
  return useRoutes(routes);
}

/** Renders routes in a memory router with the app's providers (no socket). */
export function renderRoutes(routes: RouteObject[], { session = "real", path = "/" }: RenderOptions = {}) {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false, refetchOnWindowFocus: false } });
  const probe: RouterProbe = {};
  const utils = render(
    <QueryClientProvider client={queryClient}>
      <UiProviders>
        <Session session={session}>
          <MemoryRouter initialEntries={[path]}>
            <ProbedRoutes routes={routes} router={probe} />
          </MemoryRouter>
        </Session>
      </UiProviders>
    </QueryClientProvider>,
  );
  const router: TestRouter = {
    location: () => probe.location!,
    navigate: (to) => probe.navigate!(to),
  };
  return { ...utils, router, queryClient };
}

/** Renders one element at `path`, with a catch-all route that prints where navigation went. */
export function renderPage(element: ReactElement, options: RenderOptions & { routePath?: string } = {}) {
  return renderRoutes(
    [
      { path: options.routePath ?? options.path ?? "/", element },
      { path: "*", element: <LocationProbe /> },
    ],
    options,
  );
}

function LocationProbe() {
  const location = useLocation();
  return <p data-testid="location">{location.pathname}</p>;
}
