import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRoot } from "react-dom/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import en from "../locales/login.en";
import pt from "../locales/login.pt";
import { jsonResponse, makeUser, mockFetch } from "../test/utils";
import { LoginShell, showLoginShell, TOAST_MS } from "./loginShell";

vi.mock("./fullApp", () => ({ startApp: vi.fn(async () => {}), prefetchApp: vi.fn() }));

afterEach(() => window.history.replaceState(null, "", "/"));

function renderShell(language: "pt" | "en" = "pt", startApp = vi.fn(async () => {})) {
  render(<LoginShell texts={language === "pt" ? pt : en} language={language} startApp={startApp} />);
  return startApp;
}

async function fillIn(email: string, password: string) {
  await userEvent.type(screen.getByLabelText("E-mail"), email);
  await userEvent.type(screen.getByLabelText("Senha"), `${password}{Enter}`);
}

describe("the login shell: the login page before the app (issue 20)", () => {
  it("shows the login form with its texts, the e-mail field focused", () => {
    renderShell();
    expect(screen.getByRole("heading", { name: "Login" })).toBeInTheDocument();
    expect(screen.getByText("Balcão")).toBeInTheDocument();
    expect(screen.getByLabelText("E-mail")).toHaveFocus();
    expect(screen.getByLabelText("E-mail")).toHaveAttribute("type", "email");
    expect(screen.getByLabelText("Senha")).toHaveAttribute("type", "password");
    expect(screen.getByRole("button", { name: "Entrar" })).toBeEnabled();
    expect(screen.getByRole("link", { name: "Não tem uma conta? Cadastre-se!" })).toHaveAttribute("href", "/signup");
  });

  it("validates with the shared schema before calling the server", async () => {
    const { calls } = mockFetch({});
    renderShell();
    await userEvent.click(screen.getByRole("button", { name: "Entrar" }));
    expect(await screen.findAllByText("Obrigatório")).toHaveLength(2);
    expect(calls).toHaveLength(0);
  });

  it("logs in, keeps the session and hands the user to the app, the spinner on until the app is up", async () => {
    const user = makeUser({ id: 7, companyId: 3 });
    const { calls } = mockFetch({ "POST /api/auth/login": () => jsonResponse(200, { token: "jwt-token", user }) });
    let appUp: () => void = () => {};
    const startApp = renderShell(
      "pt",
      vi.fn(() => new Promise<void>((resolve) => (appUp = resolve))),
    );
    await fillIn("Ana@Acme.test", "secret");
    await waitFor(() => expect(startApp).toHaveBeenCalledWith(user));
    expect(calls[0]).toMatchObject({ method: "POST", url: "/api/auth/login", body: { email: "ana@acme.test", password: "secret" } });
    expect(localStorage.getItem("token")).toBe("jwt-token");
    expect(localStorage.getItem("companyId")).toBe("3");
    expect(localStorage.getItem("userId")).toBe("7");
    expect(screen.getByRole("progressbar", { name: "Carregando..." }).closest("button")).toBeDisabled();
    await act(async () => appUp());
    expect(screen.getByRole("button", { name: "Entrar" })).toBeEnabled();
  });

  it("toasts the translated credentials error from the catalogue, for 3 seconds", async () => {
    mockFetch({ "POST /api/auth/login": () => jsonResponse(401, { error: "ERR_INVALID_CREDENTIALS" }) });
    const startApp = renderShell();
    await fillIn("ana@acme.test", "wrong");
    const toast = await screen.findByRole("alert");
    expect(toast).toHaveTextContent("Erro de autenticação. Por favor, tente novamente.");
    expect(localStorage.getItem("token")).toBeNull();
    expect(startApp).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.queryByRole("alert")).not.toBeInTheDocument(), { timeout: TOAST_MS + 2000 });
  });

  it("names the expiry date when the subscription has expired", async () => {
    mockFetch({ "POST /api/auth/login": () => jsonResponse(402, { error: "ERR_SUBSCRIPTION_EXPIRED", meta: { dueDate: "2025-02-01" } }) });
    renderShell();
    await fillIn("ana@acme.test", "secret");
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Opss! Sua assinatura venceu em 01/02/2025. Entre em contato com o suporte para mais informações.",
    );
  });

  it("shows an unknown server text as it came, and the generic text when there is none", async () => {
    let answer = jsonResponse(400, { error: "Something odd" });
    mockFetch({ "POST /api/auth/login": () => answer });
    renderShell();
    await fillIn("ana@acme.test", "secret");
    expect(await screen.findByText("Something odd")).toBeInTheDocument();
    answer = jsonResponse(500, { error: "" });
    await userEvent.click(screen.getByRole("button", { name: "Entrar" }));
    expect(await screen.findByText("Ocorreu um erro!")).toBeInTheDocument();
  });

  it("speaks English with the English texts", async () => {
    mockFetch({ "POST /api/auth/login": () => jsonResponse(401, { error: "ERR_INVALID_CREDENTIALS" }) });
    renderShell("en");
    await userEvent.type(screen.getByLabelText("Email"), "ana@acme.test");
    await userEvent.type(screen.getByLabelText("Password"), "wrong{Enter}");
    expect(await screen.findByRole("alert")).toHaveTextContent("Authentication error. Please try again.");
    expect(screen.getByRole("button", { name: "Log in" })).toBeInTheDocument();
  });

  it("starts the app on /signup when the visitor follows the link", async () => {
    mockFetch({});
    const startApp = renderShell();
    await userEvent.click(screen.getByRole("link", { name: /Cadastre-se/ }));
    expect(window.location.pathname).toBe("/signup");
    expect(startApp).toHaveBeenCalledWith();
  });

  it("renders in the app's root in the start-up language, then downloads the app", async () => {
    const { prefetchApp } = await import("./fullApp");
    localStorage.setItem("language", "en");
    const container = document.createElement("div");
    document.body.append(container);
    const root = createRoot(container);
    await act(() => showLoginShell(root));
    expect(screen.getByRole("button", { name: "Log in" })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe("en-US");
    await waitFor(() => expect(prefetchApp).toHaveBeenCalled());
    act(() => root.unmount());
    container.remove();
  });
});
