import { screen, waitFor } from "@testing-library/react";
import { act } from "react";
import { describe, expect, it, vi } from "vitest";
import type { AppSocket } from "../../api/socket";
import { sessionStore } from "../../api/session";
import { SocketContext } from "../../api/SocketProvider";
import { renderPage } from "../../test/utils";
import { useAnotherLoginGuard } from "./useAnotherLoginGuard";

function fakeSocket() {
  const handlers = new Map<string, (payload: unknown) => void>();
  const socket = {
    on: (event: string, fn: (payload: unknown) => void) => handlers.set(event, fn),
    off: (event: string) => handlers.delete(event),
  };
  return { socket: socket as unknown as AppSocket, emit: (event: string, payload: unknown) => act(() => handlers.get(event)?.(payload)) };
}

const tokenWithSid = (sid: string) => `h.${btoa(JSON.stringify({ id: 1, sid })).replace(/=+$/, "")}.s`;

function Guard() {
  useAnotherLoginGuard();
  return null;
}

describe("useAnotherLoginGuard", () => {
  it("warns and logs out after 1 s when another session took over", async () => {
    sessionStore.save(tokenWithSid("mine"), { companyId: 1, userId: 1 });
    const ended = vi.fn();
    const off = sessionStore.onEnd(ended);
    const { socket, emit } = fakeSocket();
    renderPage(
      <SocketContext.Provider value={socket}>
        <Guard />
      </SocketContext.Provider>,
    );
    emit("auth", { action: "update", user: { id: 1, email: "a@b.co", companyId: 1 }, sessionId: "mine" });
    expect(screen.queryByText("Sua conta foi acessada em outro computador.")).not.toBeInTheDocument();

    const before = Date.now();
    emit("auth", { action: "update", user: { id: 1, email: "a@b.co", companyId: 1 }, sessionId: "theirs" });
    expect(await screen.findByText("Sua conta foi acessada em outro computador.")).toBeInTheDocument();
    expect(ended).not.toHaveBeenCalled();
    await waitFor(() => expect(ended).toHaveBeenCalledWith("anotherLogin", undefined), { timeout: 4000 });
    expect(Date.now() - before).toBeGreaterThanOrEqual(950);
    expect(sessionStore.getToken()).toBeNull();
    off();
  });
});
