import { describe, expect, it } from "vitest";
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
  });
});
