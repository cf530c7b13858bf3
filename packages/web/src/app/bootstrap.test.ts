import { describe, expect, it } from "vitest";
import { PAGE_ACCESS } from "@balcao/shared";
import { boot } from "./bootstrap";

describe("boot: the light login shell or the whole app (issue 20)", () => {
  it("shows the login shell on /login without a stored session", () => {
    expect(boot("/login", null)).toEqual({ mode: "login", path: "/login" });
    expect(boot("/login/", null)).toEqual({ mode: "login", path: "/login" });
    expect(boot("/LOGIN", null)).toEqual({ mode: "login", path: "/login" });
  });

  it("starts the app whenever a token is stored: the app checks it and leaves /login when it works", () => {
    expect(boot("/login", "jwt")).toEqual({ mode: "app" });
    expect(boot("/tickets", "jwt")).toEqual({ mode: "app" });
    expect(boot("/", "jwt")).toEqual({ mode: "app" });
  });

  it("sends a visitor without a session on a private page to the login shell, where the app's guards would", () => {
    expect(boot("/", null)).toEqual({ mode: "login", path: "/login" });
    expect(boot("/users", null)).toEqual({ mode: "login", path: "/login" });
    expect(boot("/tickets/12", null)).toEqual({ mode: "login", path: "/login" });
    expect(boot("/no-such-page", null)).toEqual({ mode: "login", path: "/login" });
    expect(boot("/signups", null)).toEqual({ mode: "login", path: "/login" });
  });

  it("starts the app on its other public pages: sign-up and the simulator's public link", () => {
    expect(boot("/signup", null)).toEqual({ mode: "app" });
    expect(boot("/signup/", null)).toEqual({ mode: "app" });
    expect(boot("/simulator", null)).toEqual({ mode: "app" });
    expect(boot("/simulator/4", null)).toEqual({ mode: "app" });
    expect(boot("/Simulator/4/", null)).toEqual({ mode: "app" });
    // Paths no public page matches go where the router's catch-all would send them.
    expect(boot("/simulator/4/extra", null)).toEqual({ mode: "login", path: "/login" });
  });

  it("follows PAGE_ACCESS: a page made private there is no longer started without a session", () => {
    const publicPages = Object.entries(PAGE_ACCESS).filter(([, level]) => level === "public");
    expect(publicPages.map(([pattern]) => pattern).sort()).toEqual(["/login", "/signup", "/simulator/:connectionId?"]);
    for (const [pattern, level] of Object.entries(PAGE_ACCESS)) {
      if (pattern === "/login") continue;
      const sample = pattern.replace(/:[^/]+\??/g, "7");
      expect(boot(sample, null).mode, pattern).toBe(level === "public" ? "app" : "login");
    }
  });
});
