import { act, screen, waitFor } from "@testing-library/react";
import { beforeAll, describe, expect, it } from "vitest";
import { PRELOAD_TIMEOUT_MS, preloadPages } from "../test/lazyPages";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderRoutes } from "../test/utils";
import { clearToasts } from "../components/toasts";
import { routes } from "./router";

function mockSettings(campaignsEnabled = "false") {
  return mockFetch({ "GET /api/settings": () => jsonResponse(200, [{ key: "campaignsEnabled", value: campaignsEnabled }]) });
}

describe("route guards", () => {
  beforeAll(
    () =>
      preloadPages(
        () => import("../features/auth/LoginRoute"),
        () => import("../features/dashboard/DashboardPage"),
        () => import("../features/users/UsersPage"),
        () => import("../features/campaigns/CampaignsPage"),
        () => import("../features/contact-lists/ContactListsPage"),
      ),
    PRELOAD_TIMEOUT_MS,
  );

  it("sends unauthenticated users to /login", async () => {
    mockSettings();
    const { router } = renderRoutes(routes, { session: fakeSession(null), path: "/users" });
    expect(await screen.findByRole("button", { name: "Entrar" })).toBeInTheDocument();
    expect(router.location().pathname).toBe("/login");
  });

  it("sends authenticated users away from /login and /signup to /", async () => {
    mockSettings();
    const { router } = renderRoutes(routes, { session: fakeSession(makeUser()), path: "/signup" });
    expect(await screen.findByRole("heading", { name: "Dashboard" })).toBeInTheDocument();
    expect(router.location().pathname).toBe("/");
  });

  it("redirects a non-admin from the dashboard to /tickets", async () => {
    mockSettings();
    const { router } = renderRoutes(routes, { session: fakeSession(makeUser({ profile: "user" })), path: "/" });
    expect(await screen.findByRole("heading", { name: "Atendimentos" })).toBeInTheDocument();
    expect(router.location().pathname).toBe("/tickets");
  });

  it.each(["/users", "/connections", "/queues", "/settings", "/financeiro"])(
    "sends an attendant typing %s to /tickets with a message, without rendering the admin page",
    async (path) => {
      const { calls } = mockSettings();
      const { router } = renderRoutes(routes, { session: fakeSession(makeUser({ profile: "user" })), path });
      expect(await screen.findByRole("heading", { name: "Atendimentos" })).toBeInTheDocument();
      expect(router.location().pathname).toBe("/tickets");
      expect(await screen.findByText("Você não tem permissão para acessar esta página.")).toBeInTheDocument();
      // The admin page never mounted: none of its calls went out.
      expect(calls.some((c) => /\/api\/(users|whatsapp|queue)\b|\/api\/invoices/.test(c.url))).toBe(false);
    },
  );

  it("lets a supervisor into member pages but not admin ones, and an admin into /users", async () => {
    mockSettings();
    const supervisor = renderRoutes(routes, { session: fakeSession(makeUser({ profile: "supervisor" })), path: "/users" });
    await waitFor(() => expect(supervisor.router.location().pathname).toBe("/tickets"));
    supervisor.unmount();
    act(() => clearToasts()); // the supervisor's "no permission" toast would still be on screen
    mockFetch({
      "GET /api/settings": () => jsonResponse(200, []),
      "GET /api/users/": () => jsonResponse(200, { users: [], hasMore: false }),
    });
    const admin = renderRoutes(routes, { session: fakeSession(makeUser()), path: "/users" });
    expect(await screen.findByRole("heading", { name: "Usuários" })).toBeInTheDocument();
    expect(admin.router.location().pathname).toBe("/users");
    expect(screen.queryByText("Você não tem permissão para acessar esta página.")).not.toBeInTheDocument();
  });

  it("shows a private page inside the layout with the greeting", async () => {
    mockSettings();
    renderRoutes(routes, { session: fakeSession(makeUser({ profile: "user", name: "Bia" })), path: "/tags" });
    expect(await screen.findByRole("heading", { name: "Tags" })).toBeInTheDocument();
    expect(screen.getByText("Olá Bia, seja bem-vindo a Acme")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Adicionar tag" })).toBeInTheDocument();
    expect(screen.queryByText(/Ativo até/)).not.toBeInTheDocument();
  });

  it("keeps campaign routes closed unless campaigns are enabled", async () => {
    mockSettings("false");
    const { router } = renderRoutes(routes, { session: fakeSession(makeUser()), path: "/campaigns" });
    await waitFor(() => expect(router.location().pathname).toBe("/"));
  });

  it("opens campaign routes with the company setting", async () => {
    mockSettings("true");
    renderRoutes(routes, { session: fakeSession(makeUser()), path: "/campaigns" });
    expect(await screen.findByRole("heading", { name: "Campanhas" })).toBeInTheDocument();
  });

  it("opens campaign routes with the local cshow flag", async () => {
    localStorage.setItem("cshow", "null");
    mockSettings("false");
    renderRoutes(routes, { session: fakeSession(makeUser()), path: "/contact-lists" });
    expect(await screen.findByRole("heading", { name: "Listas de Contatos" })).toBeInTheDocument();
  });
});
