import type { SmtpSettingsDTO } from "@balcao/shared";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import { SmtpSettingsForm } from "./SmtpSettingsForm";

const saved: SmtpSettingsDTO = {
  enabled: false,
  host: "smtp.empresa.test",
  port: 587,
  secure: false,
  user: "alertas",
  hasPassword: true,
  from: "alertas@empresa.test",
  recipients: [],
  language: "pt",
};

describe("SmtpSettingsForm", () => {
  it("loads the setting without a password, saves (blank password kept), shows field errors and sends a test e-mail", async () => {
    let answer = 0;
    const { calls } = mockFetch({
      "GET /api/settings/smtp": () => jsonResponse(200, saved),
      "PUT /api/settings/smtp": (call) =>
        ++answer === 1
          ? jsonResponse(400, { error: "Invalid email", issues: [{ path: "recipients.0", message: "Invalid email" }] })
          : jsonResponse(200, { ...saved, ...(call.body as object), hasPassword: true }),
      "POST /api/settings/smtp/test": () => jsonResponse(200, { recipients: ["ops@empresa.test"] }),
    });
    renderPage(<SmtpSettingsForm />, { session: fakeSession(makeUser({ profile: "admin" })) });
    expect(await screen.findByLabelText("Servidor SMTP")).toHaveValue("smtp.empresa.test");
    expect(screen.getByLabelText("Senha")).toHaveValue("");
    expect(screen.getByText("Uma senha está salva; deixe em branco para mantê-la.")).toBeInTheDocument();

    await userEvent.click(screen.getByLabelText("Enviar alertas por e-mail"));
    await userEvent.type(screen.getByLabelText("Destinatários"), "nao-e-email");
    await userEvent.click(screen.getByRole("button", { name: "Salvar" }));
    expect(await screen.findByText("E-mail inválido")).toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText("Destinatários"));
    await userEvent.type(screen.getByLabelText("Destinatários"), "ops@empresa.test, noc@empresa.test");
    await userEvent.click(screen.getByRole("button", { name: "Salvar" }));
    expect(await screen.findByText("Configuração de e-mail salva.")).toBeInTheDocument();
    const put = calls.filter((c) => c.method === "PUT").at(-1)!;
    expect(put.body).toEqual({
      enabled: true,
      host: "smtp.empresa.test",
      port: 587,
      secure: false,
      user: "alertas",
      from: "alertas@empresa.test",
      recipients: ["ops@empresa.test", "noc@empresa.test"],
      language: "pt",
    });
    expect(put.body).not.toHaveProperty("password");

    await userEvent.click(screen.getByRole("button", { name: "Enviar e-mail de teste" }));
    expect(await screen.findByText("E-mail de teste enviado para ops@empresa.test.")).toBeInTheDocument();
  });

  it("shows the server's SMTP error for a failed test e-mail", async () => {
    mockFetch({
      "GET /api/settings/smtp": () => jsonResponse(200, saved),
      "POST /api/settings/smtp/test": () => jsonResponse(400, { error: "ERR_SMTP_SEND_FAILED", meta: { detail: "451 mailbox busy" } }),
    });
    renderPage(<SmtpSettingsForm />, { session: fakeSession(makeUser({ profile: "admin" })) });
    await userEvent.click(await screen.findByRole("button", { name: "Enviar e-mail de teste" }));
    await waitFor(() => expect(screen.getByText("O servidor SMTP não aceitou o e-mail: 451 mailbox busy")).toBeInTheDocument());
  });
});
