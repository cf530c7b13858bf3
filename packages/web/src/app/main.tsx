import { createRoot } from "react-dom/client";
import { sessionStore } from "../api/session";
import { boot } from "./bootstrap";

/*
 * A small entry (issue 20): React, the session's token and the decision of bootstrap.ts. The login page of a
 * visitor with no session shows with React alone (loginShell.tsx, ~70 KB of gzipped JavaScript); every other
 * page, and the login page once the user is in, is the whole app (fullApp.tsx: router, providers, theme, texts).
 */
const root = createRoot(document.getElementById("root")!);
const start = boot(window.location.pathname, sessionStore.getToken());
if (start.mode === "login") {
  // Where the app's guards would send the visitor (PrivateRoute).
  if (window.location.pathname !== start.path) window.history.replaceState(null, "", start.path);
  const { showLoginShell } = await import("./loginShell");
  await showLoginShell(root);
} else {
  const { startApp } = await import("./fullApp");
  await startApp(root);
}
