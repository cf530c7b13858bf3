import { fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import { quick } from "./fixtures";
import { QuickMessageModal } from "./QuickMessageModal";

const session = () => fakeSession(makeUser());

describe("QuickMessageModal", () => {
  it("validates shortcode 3–50 and message 3–1000 with the spec's texts", async () => {
    const { calls } = mockFetch({});
    renderPage(<QuickMessageModal open onClose={() => {}} />, { session: session() });
    const shortcode = screen.getByLabelText("Atalho");
    const message = screen.getByLabelText("Mensagem");
    expect(shortcode).toHaveFocus();
    await userEvent.click(screen.getByRole("button", { name: "Adicionar" }));
    expect(await screen.findAllByText("Obrigatório")).toHaveLength(2);

    await userEvent.type(shortcode, "oi");
    await userEvent.type(message, "ok");
    await userEvent.click(screen.getByRole("button", { name: "Adicionar" }));
    expect(await screen.findAllByText("Muito curto!")).toHaveLength(2);

    fireEvent.change(shortcode, { target: { value: "x".repeat(51) } });
    fireEvent.change(message, { target: { value: "y".repeat(1001) } });
    await userEvent.click(screen.getByRole("button", { name: "Adicionar" }));
    expect(await screen.findAllByText("Muito longo!")).toHaveLength(2);

    fireEvent.change(shortcode, { target: { value: "x".repeat(50) } });
    fireEvent.change(message, { target: { value: "y".repeat(1000) } });
    await userEvent.click(screen.getByRole("button", { name: "Adicionar" }));
    await waitFor(() => expect(screen.queryByText("Muito longo!")).not.toBeInTheDocument());
    expect(calls).toHaveLength(1);
  });

  it("adds with Enter in the shortcode, keeps new lines in the message and toasts 'Resposta rápida adicionada'", async () => {
    const onClose = vi.fn();
    const { calls } = mockFetch({ "POST /api/quick-messages": ({ body }) => jsonResponse(201, quick({ id: 9, ...(body as object) })) });
    renderPage(<QuickMessageModal open onClose={onClose} />, { session: session() });
    await userEvent.type(screen.getByLabelText("Mensagem"), "Bom dia!{Enter}Em que posso ajudar?");
    await userEvent.type(screen.getByLabelText("Atalho"), "bomdia{Enter}");
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls[0]!.body).toEqual({ shortcode: "bomdia", message: "Bom dia!\nEm que posso ajudar?" });
    expect(await screen.findByText("Resposta rápida adicionada")).toBeInTheDocument();
  });

  it("updates with Ctrl+Enter and toasts 'Resposta rápida atualizada'", async () => {
    const onClose = vi.fn();
    const { calls } = mockFetch({ "PUT /api/quick-messages/5": ({ body }) => jsonResponse(200, quick(body as object)) });
    renderPage(<QuickMessageModal open quickMessage={quick()} onClose={onClose} />, { session: session() });
    expect(screen.getByLabelText("Atalho")).toHaveValue("saudacao");
    await userEvent.type(screen.getByLabelText("Mensagem"), " 😊{Control>}{Enter}{/Control}");
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls[0]!.body).toEqual({ shortcode: "saudacao", message: "Olá! Como posso ajudar? 😊" });
    expect(await screen.findByText("Resposta rápida atualizada")).toBeInTheDocument();
  });

  it("shows a duplicated shortcode under the field", async () => {
    mockFetch({ "POST /api/quick-messages": () => jsonResponse(400, { error: "ERR_DUPLICATED_SHORTCODE" }) });
    renderPage(<QuickMessageModal open onClose={() => {}} />, { session: session() });
    await userEvent.type(screen.getByLabelText("Mensagem"), "Olá!");
    await userEvent.type(screen.getByLabelText("Atalho"), "oi1{Enter}");
    expect(await screen.findAllByText("Já existe uma resposta rápida com este atalho.")).toHaveLength(2);
  });
});
