import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { addDays, format } from "date-fns";
import { describe, expect, it } from "vitest";
import { jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import LoginRoute from "./LoginRoute";

// The light login page inside the app (the route /login): the app's texts, session, toasts and router.
const renderLogin = () => renderPage(<LoginRoute />, { path: "/login" });

describe("LoginPage in the app (LoginRoute)", () => {
  it("validates required fields before calling the server", async () => {
    const { calls } = mockFetch({});
    renderLogin();
    await userEvent.click(screen.getByRole("button", { name: "Entrar" }));
    expect(await screen.findAllByText("Obrigatório")).toHaveLength(2);
    expect(calls).toHaveLength(0);
  });

  it("logs in with Enter, stores the session and goes to /", async () => {
    const { calls } = mockFetch({ "POST /api/auth/login": () => jsonResponse(200, { token: "jwt-token", user: makeUser({ id: 7, companyId: 3 }) }) });
    renderLogin();
    await userEvent.type(screen.getByLabelText("E-mail"), "Ana@Acme.test");
    await userEvent.type(screen.getByLabelText("Senha"), "secret{Enter}");
    expect(await screen.findByTestId("location")).toHaveTextContent("/");
    expect(calls[0]).toMatchObject({ method: "POST", url: "/api/auth/login", body: { email: "ana@acme.test", password: "secret" } });
    expect(localStorage.getItem("token")).toBe("jwt-token");
    expect(localStorage.getItem("companyId")).toBe("3");
    expect(localStorage.getItem("userId")).toBe("7");
  });

  it("warns when the subscription ends in fewer than 5 days", async () => {
    const dueDate = format(addDays(new Date(), 2), "yyyy-MM-dd");
    const user = makeUser();
    mockFetch({ "POST /api/auth/login": () => jsonResponse(200, { token: "t", user: { ...user, company: { ...user.company, dueDate } } }) });
    renderLogin();
    await userEvent.type(screen.getByLabelText("E-mail"), "ana@acme.test");
    await userEvent.type(screen.getByLabelText("Senha"), "secret");
    await userEvent.click(screen.getByRole("button", { name: "Entrar" }));
    expect(await screen.findByText("Sua assinatura vence em 2 dia(s)")).toBeInTheDocument();
  });

  it("shows the translated credentials error", async () => {
    mockFetch({ "POST /api/auth/login": () => jsonResponse(401, { error: "ERR_INVALID_CREDENTIALS" }) });
    renderLogin();
    await userEvent.type(screen.getByLabelText("E-mail"), "ana@acme.test");
    await userEvent.type(screen.getByLabelText("Senha"), "wrong{Enter}");
    expect(await screen.findByText("Erro de autenticação. Por favor, tente novamente.")).toBeInTheDocument();
    expect(localStorage.getItem("token")).toBeNull();
    expect(screen.queryByTestId("location")).not.toBeInTheDocument();
  });

  it("names the expiry date when the subscription has expired", async () => {
    mockFetch({ "POST /api/auth/login": () => jsonResponse(402, { error: "ERR_SUBSCRIPTION_EXPIRED", meta: { dueDate: "2025-02-01" } }) });
    renderLogin();
    await userEvent.type(screen.getByLabelText("E-mail"), "ana@acme.test");
    await userEvent.type(screen.getByLabelText("Senha"), "secret{Enter}");
    expect(
      await screen.findByText("Opss! Sua assinatura venceu em 01/02/2025. Entre em contato com o suporte para mais informações."),
    ).toBeInTheDocument();
  });

  it("shows the spinner on the disabled button while the login runs", async () => {
    let answer: (response: Response) => void = () => {};
    mockFetch({ "POST /api/auth/login": () => new Promise<Response>((resolve) => (answer = resolve)) });
    renderLogin();
    await userEvent.type(screen.getByLabelText("E-mail"), "ana@acme.test");
    await userEvent.type(screen.getByLabelText("Senha"), "secret{Enter}");
    expect(await screen.findByRole("progressbar", { name: "Carregando..." })).toBeInTheDocument();
    expect(screen.getByRole("progressbar", { name: "Carregando..." }).closest("button")).toBeDisabled();
    answer(jsonResponse(401, { error: "ERR_INVALID_CREDENTIALS" }));
    expect(await screen.findByRole("button", { name: "Entrar" })).toBeEnabled();
  });

  it("marks the invalid fields, focuses the first and validates a field again as it changes", async () => {
    mockFetch({});
    renderLogin();
    await userEvent.type(screen.getByLabelText("Senha"), "secret");
    await userEvent.click(screen.getByRole("button", { name: "Entrar" }));
    const email = screen.getByLabelText("E-mail");
    await waitFor(() => expect(email).toHaveAttribute("aria-invalid", "true"));
    expect(email).toHaveFocus();
    expect(email).toHaveAccessibleDescription("Obrigatório");
    expect(screen.getByLabelText("Senha")).toHaveAttribute("aria-invalid", "false");
    await userEvent.type(email, "a");
    await waitFor(() => expect(email).toHaveAttribute("aria-invalid", "false"));
    expect(screen.queryByText("Obrigatório")).not.toBeInTheDocument();
  });

  it("links to the sign-up page", async () => {
    mockFetch({});
    renderLogin();
    await userEvent.click(screen.getByRole("link", { name: /Cadastre-se/ }));
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/signup"));
  });
});
