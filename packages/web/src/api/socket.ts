/**
 * Socket.IO client of docs/api.md: same origin, path /socket.io, websocket only, the access token in the
 * handshake auth payload (read again on every reconnect, so a refreshed token is used).
 */
import { ANOTHER_LOGIN_LOGOUT_DELAY_MS, USER_STATUS_INTERVAL_MS } from "@balcao/shared";
import { io, type Socket } from "socket.io-client";
import { refreshAccessToken } from "./client";
import { sessionStore } from "./session";

export type AppSocket = Socket;

export function connectSocket(): { socket: AppSocket; close: () => void } {
  const socket = io({
    path: "/socket.io",
    transports: ["websocket"],
    auth: (cb) => cb({ token: sessionStore.getToken() }),
    reconnection: true,
  });

  const sendStatus = () => {
    if (socket.connected) socket.emit("userStatus");
  };
  socket.on("connect", sendStatus);
  const timer = setInterval(sendStatus, USER_STATUS_INTERVAL_MS);

  socket.on("connect_error", (err) => {
    if (err.message === "ERR_TOKEN_EXPIRED") {
      refreshAccessToken()
        .then(() => socket.connect())
        .catch(() => sessionStore.end("unauthorized"));
    } else if (err.message === "ERR_SESSION_EXPIRED") {
      sessionStore.end("unauthorized");
    }
  });

  // The server closes a socket whose token expired or whose session changed (logout elsewhere, password or
  // profile change, deleted user); socket.io does not reconnect after that by itself. A refresh tells which
  // case it is. The wait lets the another-login notice (useAnotherLoginGuard) end the session first.
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  socket.on("disconnect", (reason) => {
    if (reason !== "io server disconnect") return;
    clearTimeout(retry);
    retry = setTimeout(() => {
      if (closed || !sessionStore.getToken()) return;
      refreshAccessToken()
        .then(() => {
          if (!closed) socket.connect();
        })
        .catch(() => {
          if (!closed) sessionStore.end("unauthorized");
        });
    }, ANOTHER_LOGIN_LOGOUT_DELAY_MS + 200);
  });

  return {
    socket,
    close: () => {
      closed = true;
      clearTimeout(retry);
      clearInterval(timer);
      socket.removeAllListeners();
      socket.disconnect();
    },
  };
}
