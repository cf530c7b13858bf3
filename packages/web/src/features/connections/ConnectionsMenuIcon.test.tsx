import type { ConnectionDTO } from "@balcao/shared";
import { act, renderHook, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SocketContext } from "../../api/SocketProvider";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import { CONNECTION_BADGE_DELAY_MS, ConnectionsMenuIcon, useDelayedConnectionAlert } from "./ConnectionsMenuIcon";
import { makeConnection } from "./fixtures";
import { fakeSocket } from "./testSocket";

afterEach(() => vi.useRealTimers());

describe("connections badge", () => {
  it("is evaluated 2 s after the list changes (fake timers)", () => {
    vi.useFakeTimers();
    const ok = [makeConnection({ id: 1, status: "CONNECTED" })];
    const { result, rerender } = renderHook(({ list }: { list: ConnectionDTO[] | undefined }) => useDelayedConnectionAlert(list), {
      initialProps: { list: undefined as ConnectionDTO[] | undefined },
    });
    expect(result.current).toBe(false);

    rerender({ list: [makeConnection({ id: 1, status: "DISCONNECTED" })] });
    act(() => vi.advanceTimersByTime(CONNECTION_BADGE_DELAY_MS - 1));
    expect(result.current).toBe(false);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe(true);

    // Back to CONNECTED: the badge stays until the next check, 2 s later.
    rerender({ list: ok });
    act(() => vi.advanceTimersByTime(1_500));
    expect(result.current).toBe(true);
    // Another change restarts the wait.
    rerender({ list: [...ok] });
    act(() => vi.advanceTimersByTime(1_500));
    expect(result.current).toBe(true);
    act(() => vi.advanceTimersByTime(500));
    expect(result.current).toBe(false);

    for (const status of ["qrcode", "PAIRING", "TIMEOUT", "OPENING"] as const) {
      rerender({ list: [...ok, makeConnection({ id: 2, status })] });
      act(() => vi.advanceTimersByTime(CONNECTION_BADGE_DELAY_MS));
      expect(result.current, status).toBe(true);
    }
  });

  it("shows the exclamation on the menu icon after a live status change", async () => {
    mockFetch({ "GET /api/whatsapp/": () => jsonResponse(200, [makeConnection({ id: 1, status: "CONNECTED" })]) });
    const { socket, emit } = fakeSocket();
    renderPage(
      <SocketContext.Provider value={socket}>
        <ConnectionsMenuIcon />
      </SocketContext.Provider>,
      { session: fakeSession(makeUser()) },
    );
    const badge = await screen.findByTestId("connections-badge");
    await new Promise((r) => setTimeout(r, CONNECTION_BADGE_DELAY_MS + 200));
    expect(badge).toHaveAttribute("data-alert", "false");
    emit("whatsappSession", { action: "update", session: makeConnection({ id: 1, status: "DISCONNECTED", updatedAt: "2025-02-01T00:00:00.000Z" }) });
    expect(badge).toHaveAttribute("data-alert", "false");
    await waitFor(() => expect(badge).toHaveAttribute("data-alert", "true"), { timeout: CONNECTION_BADGE_DELAY_MS + 2_000 });
    expect(screen.getByText("!")).toBeInTheDocument();
    expect(screen.getByTitle("Há conexões que precisam de atenção")).toBeInTheDocument();
  });
});
