import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { sessionStore } from "../../api/session";
import { PRELOAD_TIMEOUT_MS, preloadPages } from "../../test/lazyPages";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderRoutes } from "../../test/utils";
import { formatDate, formatMoney, formatNumber } from "../format";
import i18n, { initialLanguage } from "../i18n";
import { routes } from "../router";

beforeAll(() => preloadPages(), PRELOAD_TIMEOUT_MS);

describe("language picker in the user menu (issue 16)", () => {
  beforeEach(() => {
    const matchMedia = window.matchMedia;
    vi.spyOn(window, "matchMedia").mockImplementation((query: string) => ({ ...matchMedia(query), matches: query.includes("min-width:600px") }));
  });

  it("switches the texts at once, remembers the choice in the browser and stores it on the user", async () => {
    const user = makeUser({ id: 7, profile: "user" });
    const { calls } = mockFetch({
      "GET /api/settings": () => jsonResponse(200, []),
      "PUT /api/users/7": () => jsonResponse(200, { ...user, language: "en" }),
    });
    const setUser = vi.fn();
    renderRoutes(routes, { session: fakeSession(user, { setUser }), path: "/tickets" });
    const nav = await screen.findByRole("navigation", { name: "Menu principal" });
    expect(within(nav).getByText("Respostas rápidas")).toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "Perfil" }));
    const portugues = screen.getByRole("menuitemradio", { name: "Português" });
    expect(portugues).toHaveAttribute("aria-checked", "true");
    await userEvent.click(screen.getByRole("menuitemradio", { name: "English" }));

    const english = await screen.findByRole("navigation", { name: "Main menu" });
    expect(within(english).getByText("Quick replies")).toBeInTheDocument();
    expect(within(english).getByText("Log out")).toBeInTheDocument();
    expect(i18n.language).toBe("en");
    expect(document.documentElement.lang).toBe("en-US");
    expect(localStorage.getItem("language")).toBe("en");
    await waitFor(() => expect(calls.find((c) => c.method === "PUT")?.body).toEqual({ language: "en" }));
    await waitFor(() => expect(setUser).toHaveBeenCalledWith(expect.objectContaining({ id: 7, language: "en" })));

    await userEvent.click(screen.getByRole("button", { name: "Profile" }));
    expect(screen.getByRole("menuitemradio", { name: "English" })).toHaveAttribute("aria-checked", "true");
  });

  it("applies the language stored on the user when the session starts", async () => {
    sessionStore.save("token", { companyId: 10, userId: 1 });
    mockFetch({
      "GET /api/auth/me": () => jsonResponse(200, makeUser({ profile: "user", language: "es" })),
      "GET /api/settings": () => jsonResponse(200, []),
    });
    renderRoutes(routes, { path: "/tickets" });
    const nav = await screen.findByRole("navigation", { name: "Menú principal" });
    expect(within(nav).getByText("Respuestas rápidas")).toBeInTheDocument();
    expect(localStorage.getItem("language")).toBe("es");
  });
});

describe("the first language and the locale formats", () => {
  it("takes the browser's choice, then the browser's language, then Portuguese", () => {
    const languages = vi.spyOn(navigator, "languages", "get");
    languages.mockReturnValue(["es-AR", "en"]);
    expect(initialLanguage()).toBe("es");
    languages.mockReturnValue(["fr-FR", "en-GB"]);
    expect(initialLanguage()).toBe("en");
    localStorage.setItem("language", "pt");
    expect(initialLanguage()).toBe("pt");
    localStorage.clear();
    languages.mockReturnValue(["fr-FR"]);
    vi.spyOn(navigator, "language", "get").mockReturnValue("de-DE");
    expect(initialLanguage()).toBe("pt");
    vi.restoreAllMocks();
  });

  it("formats dates, numbers and money per the active language", async () => {
    expect(formatDate("2026-12-31")).toBe("31/12/2026");
    expect(formatNumber(1234.5)).toBe("1.234,5");
    expect(formatMoney(1234.5).replace(/\s/g, " ")).toBe("R$ 1.234,50");
    await i18n.changeLanguage("en");
    expect(formatDate("2026-12-31")).toBe("12/31/2026");
    expect(formatNumber(1234.5)).toBe("1,234.5");
    expect(formatMoney(1234.5)).toBe("R$1,234.50");
    await i18n.changeLanguage("es");
    expect(formatDate("2026-12-31")).toBe("31/12/2026");
    expect(formatMoney(1234.5)).toMatch(/^1234,50\sR\$|^1234,50\sBRL/);
  });
});
