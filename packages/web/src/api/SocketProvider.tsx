import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import type { AppSocket } from "./socket";

export const SocketContext = createContext<AppSocket | null>(null);

/**
 * Keeps one socket open while `enabled` (a user is logged in); closes it on logout. The Socket.IO client is
 * loaded then, not with the app: the login page does not download it (issue 20).
 */
export function SocketProvider({ enabled, children }: { enabled: boolean; children: ReactNode }) {
  const [socket, setSocket] = useState<AppSocket | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let connection: ReturnType<(typeof import("./socket"))["connectSocket"]> | null = null;
    let cancelled = false;
    void import("./socket").then(({ connectSocket }) => {
      if (cancelled) return;
      connection = connectSocket();
      setSocket(connection.socket);
    });
    return () => {
      cancelled = true;
      connection?.close();
      setSocket(null);
    };
  }, [enabled]);
  return <SocketContext.Provider value={socket}>{children}</SocketContext.Provider>;
}

export const useSocket = () => useContext(SocketContext);

/** Subscribes to a server event for the component's lifetime; the latest handler is always called. */
export function useSocketEvent<T>(event: string, handler: (payload: T) => void): void {
  const socket = useSocket();
  const handlerRef = useRef(handler);
  handlerRef.current = handler;
  useEffect(() => {
    if (!socket) return;
    const listener = (payload: T) => handlerRef.current(payload);
    socket.on(event, listener);
    return () => {
      socket.off(event, listener);
    };
  }, [socket, event]);
}
