import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { PRELOAD_TIMEOUT_MS, preloadPages } from "../../test/lazyPages";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderRoutes } from "../../test/utils";
import { routes } from "../router";

beforeAll(() => preloadPages(), PRELOAD_TIMEOUT_MS);

describe("shell layout (wide screen)", () => {
  beforeEach(() => {
    const matchMedia = window.matchMedia;
    vi.spyOn(window, "matchMedia").mockImplementation((query: string) => ({ ...matchMedia(query), matches: query.includes("min-width:600px") }));
  });

  it("shows admins the admin groups, the due date and campaigns when enabled", async () => {
    mockFetch({ "GET /api/settings": () => jsonResponse(200, [{ key: "campaignsEnabled", value: "true" }]) });
    renderRoutes(routes, {
      session: fakeSession(
        makeUser({
          company: {
            id: 1,
            name: "Acme",
            dueDate: "2030-05-04",
            status: true,
            campaignsEnabled: true,
            planId: 1,
            email: "acme@example.com",
            trialExpiration: null,
          },
        }),
      ),
      path: "/users",
    });
    const nav = await screen.findByRole("navigation", { name: "Menu principal" });
    expect(screen.getByText("Ativo até 04/05/2030")).toBeInTheDocument();
    for (const label of ["Atendimento", "Gerência", "Administração", "Usuários", "Conexões", "Financeiro", "Sair"]) {
      expect(within(nav).getAllByText(label).length).toBeGreaterThan(0);
    }
    expect(await within(nav).findByText("Campanhas")).toBeInTheDocument();
    expect(within(nav).queryByText("Informativos")).not.toBeInTheDocument();
  });

  it("shows only the Atendimento group to attendants", async () => {
    mockFetch({ "GET /api/settings": () => jsonResponse(200, []) });
    renderRoutes(routes, { session: fakeSession(makeUser({ profile: "user" })), path: "/tickets" });
    const nav = await screen.findByRole("navigation", { name: "Menu principal" });
    expect(within(nav).getByText("Respostas rápidas")).toBeInTheDocument();
    expect(within(nav).queryByText("Gerência")).not.toBeInTheDocument();
    expect(within(nav).queryByText("Usuários")).not.toBeInTheDocument();
  });

  it("shows Informativos to super users", async () => {
    mockFetch({ "GET /api/settings": () => jsonResponse(200, []) });
    renderRoutes(routes, { session: fakeSession(makeUser({ super: true })), path: "/tickets" });
    const nav = await screen.findByRole("navigation", { name: "Menu principal" });
    expect(within(nav).getByText("Informativos")).toBeInTheDocument();
  });
});

describe("shell layout (narrow screen)", () => {
  it("opens the temporary drawer from the menu button", async () => {
    mockFetch({ "GET /api/settings": () => jsonResponse(200, []) });
    renderRoutes(routes, { session: fakeSession(makeUser({ profile: "user" })), path: "/tickets" });
    expect(screen.queryByRole("navigation", { name: "Menu principal" })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Abrir menu" }));
    const nav = await screen.findByRole("navigation", { name: "Menu principal" });
    await userEvent.click(within(nav).getByRole("link", { name: "Contatos" }));
    expect(await screen.findByRole("heading", { name: "Contatos" })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("navigation", { name: "Menu principal" })).not.toBeInTheDocument());
  });

  it("stores the theme and the notification volume locally", async () => {
    mockFetch({ "GET /api/settings": () => jsonResponse(200, []) });
    renderRoutes(routes, { session: fakeSession(makeUser({ profile: "user" })), path: "/tickets" });
    await userEvent.click(await screen.findByRole("button", { name: "Alternar tema" }));
    expect(localStorage.getItem("theme")).toBe('"dark"');
    await userEvent.click(screen.getByRole("button", { name: "Volume das notificações" }));
    const slider = await screen.findByRole("slider", { name: "Volume das notificações" });
    expect(slider).toHaveValue("1");
    fireEvent.keyDown(slider, { key: "ArrowLeft" });
    expect(localStorage.getItem("volume")).toBe("0.9");
  });
});
