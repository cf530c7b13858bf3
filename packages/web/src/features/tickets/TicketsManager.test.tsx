import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import { makeTicket } from "./fixtures";
import { TicketsManager } from "./TicketsManager";

afterEach(() => vi.unstubAllGlobals());

const queryOf = (url: string) => new URL(url, "http://x").searchParams;

describe("TicketsManager's search tab", () => {
  it("shows the tag and user filters (a chunk of their own) and searches with the chosen tag", async () => {
    const { calls } = mockFetch({
      "GET /api/tickets": () => jsonResponse(200, { tickets: [makeTicket({ id: 1 })], hasMore: false, nextCursor: null }),
      "GET /api/queue": () => jsonResponse(200, []),
      "GET /api/tags/list": () => jsonResponse(200, [{ id: 5, name: "VIP", color: "#2196f3" }]),
      "GET /api/users/list": () => jsonResponse(200, [{ id: 2, name: "Bruno" }]),
    });
    const user = userEvent.setup();
    renderPage(<TicketsManager onSpy={() => undefined} />, { session: fakeSession(makeUser({ id: 1, profile: "admin" })) });

    await user.click(screen.getByRole("tab", { name: /Busca/ }));
    expect(screen.getByPlaceholderText("Buscar atendimento e mensagens")).toHaveFocus();
    const tags = await screen.findByRole("combobox", { name: "Filtrar por tags" });
    expect(screen.getByRole("combobox", { name: "Filtrar por usuários" })).toBeInTheDocument();

    await user.click(tags);
    await user.click(await screen.findByRole("option", { name: "VIP" }));
    await waitFor(() => expect(calls.some((call) => call.url.startsWith("/api/tickets") && queryOf(call.url).get("tags") === "[5]")).toBe(true));
  });
});
