import { act, createElement, type ReactElement } from "react";
import type { AppSocket } from "../../api/socket";
import { SocketContext } from "../../api/SocketProvider";
import { renderPage } from "../../test/utils";

/** A socket stand-in: components subscribe with on/off, the test emits server events. */
export function fakeSocket() {
  const handlers = new Map<string, Set<(payload: unknown) => void>>();
  const socket = {
    on: (event: string, fn: (payload: unknown) => void) => handlers.set(event, (handlers.get(event) ?? new Set()).add(fn)),
    off: (event: string, fn: (payload: unknown) => void) => handlers.get(event)?.delete(fn),
  };
  return {
    socket: socket as unknown as AppSocket,
    emit: (event: string, payload: unknown) => act(() => handlers.get(event)?.forEach((fn) => fn(payload))),
    listeners: (event: string) => handlers.get(event)?.size ?? 0,
  };
}

/** renderPage inside a socket stand-in; `emit` plays the server's events. */
export function renderWithSocket(element: ReactElement, options: Parameters<typeof renderPage>[1]) {
  const { socket, emit } = fakeSocket();
  return { ...renderPage(createElement(SocketContext.Provider, { value: socket }, element), options), emit };
}
