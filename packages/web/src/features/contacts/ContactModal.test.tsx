import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import { ContactModal } from "./ContactModal";
import { makeContact } from "./fixtures";

const session = () => fakeSession(makeUser());

describe("ContactModal", () => {
  it("shows the spec's validation texts (name 2–50, number 8–50, email valid when given)", async () => {
    const { calls } = mockFetch({});
    renderPage(<ContactModal open onClose={() => {}} />, { session: session() });
    const name = screen.getByLabelText("Nome");
    expect(name).toHaveFocus();
    await userEvent.click(screen.getByRole("button", { name: "Adicionar" }));
    expect(await screen.findAllByText("Obrigatório")).toHaveLength(2);

    await userEvent.type(name, "A");
    await userEvent.type(screen.getByLabelText("Número do WhatsApp"), "1234");
    await userEvent.type(screen.getByLabelText("E-mail"), "maria@");
    await userEvent.click(screen.getByRole("button", { name: "Adicionar" }));
    expect(await screen.findAllByText("Muito curto!")).toHaveLength(2);
    expect(screen.getByText("E-mail inválido")).toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText("Número do WhatsApp"));
    await userEvent.type(screen.getByLabelText("Número do WhatsApp"), "abcdefghij");
    await userEvent.type(name, "x".repeat(60));
    await userEvent.click(screen.getByRole("button", { name: "Adicionar" }));
    expect(await screen.findByText("Número inválido")).toBeInTheDocument();
    expect(screen.getByText("Muito longo!")).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it("adds and removes extra info rows and sends the remaining ones; Enter submits", async () => {
    const onClose = vi.fn();
    const { calls } = mockFetch({ "POST /api/contacts": ({ body }) => jsonResponse(201, makeContact({ id: 9, ...(body as object) })) });
    renderPage(<ContactModal open onClose={onClose} />, { session: session() });
    expect(screen.getByText("Nenhuma informação adicional")).toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "Adicionar informação" }));
    await userEvent.click(screen.getByRole("button", { name: "Adicionar informação" }));
    let rows = screen.getAllByTestId("extra-info-row");
    expect(rows).toHaveLength(2);
    await userEvent.type(within(rows[0]!).getByLabelText("Nome do campo"), "CPF");
    await userEvent.type(within(rows[0]!).getByLabelText("Valor"), "123.456.789-00");
    // An extra info row needs a name.
    await userEvent.type(within(rows[1]!).getByLabelText("Valor"), "sem nome");
    await userEvent.type(screen.getByLabelText("Nome"), "Maria Souza");
    await userEvent.type(screen.getByLabelText("Número do WhatsApp"), "(11) 98765-4321");
    await userEvent.click(screen.getByRole("button", { name: "Adicionar" }));
    expect(await within(rows[1]!).findByText("Obrigatório")).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    await userEvent.click(screen.getByRole("button", { name: "Remover informação 2" }));
    rows = screen.getAllByTestId("extra-info-row");
    expect(rows).toHaveLength(1);
    await userEvent.click(screen.getByRole("button", { name: "Adicionar informação" }));
    rows = screen.getAllByTestId("extra-info-row");
    await userEvent.type(within(rows[1]!).getByLabelText("Nome do campo"), "Plano");
    await userEvent.type(within(rows[1]!).getByLabelText("Valor"), "Ouro{Enter}");

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls[0]!.body).toEqual({
      name: "Maria Souza",
      number: "(11) 98765-4321",
      email: "",
      extraInfo: [
        { name: "CPF", value: "123.456.789-00" },
        { name: "Plano", value: "Ouro" },
      ],
    });
    expect(await screen.findByText("Contato salvo com sucesso.")).toBeInTheDocument();
  });

  it("edits a contact with its extra info loaded by id and replaces the rows", async () => {
    const maria = makeContact({
      extraInfo: [
        { id: 1, name: "CPF", value: "111" },
        { id: 2, name: "Plano", value: "Prata" },
      ],
    });
    const onClose = vi.fn();
    const { calls } = mockFetch({
      "GET /api/contacts/7": () => jsonResponse(200, maria),
      "PUT /api/contacts/7": ({ body }) => jsonResponse(200, { ...maria, ...(body as object) }),
    });
    renderPage(<ContactModal open contact={makeContact()} onClose={onClose} />, { session: session() });
    expect(await screen.findByRole("dialog", { name: "Editar contato" })).toBeInTheDocument();
    expect(await screen.findByDisplayValue("Prata")).toBeInTheDocument();
    expect(screen.getByLabelText("Número do WhatsApp")).toHaveValue("5511987654321");
    await userEvent.click(screen.getByRole("button", { name: "Remover informação 1" }));
    await userEvent.click(screen.getByRole("button", { name: "Salvar" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((c) => c.method === "PUT")!.body).toEqual({
      name: "Maria Souza",
      number: "5511987654321",
      email: "maria@cliente.test",
      extraInfo: [{ name: "Plano", value: "Prata" }],
    });
  });

  it("lets a contact known only by its WhatsApp id stay without a number", async () => {
    const lid = makeContact({ number: null, extraInfo: [] });
    const onClose = vi.fn();
    const { calls } = mockFetch({
      "GET /api/contacts/7": () => jsonResponse(200, lid),
      "PUT /api/contacts/7": ({ body }) => jsonResponse(200, { ...lid, ...(body as object) }),
    });
    renderPage(<ContactModal open contact={lid} onClose={onClose} />, { session: session() });
    expect(await screen.findByLabelText("Número do WhatsApp")).toHaveValue("");
    await userEvent.type(screen.getByLabelText("Número do WhatsApp"), "   ");
    await userEvent.click(screen.getByRole("button", { name: "Salvar" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((c) => c.method === "PUT")!.body).toEqual({ name: "Maria Souza", email: "maria@cliente.test", extraInfo: [] });
  });

  it.each([
    [{ error: "ERR_DUPLICATED_CONTACT" }, "Este número já está cadastrado para outro contato"],
    [{ error: "ERR_WAPP_INVALID_CONTACT" }, "Este não é um número de WhatsApp válido"],
    [{ error: "Invalid number", issues: [{ path: "number", message: "Invalid number" }] }, "Número inválido"],
  ])("translates the server's %o under the number and in a toast", async (answer, text) => {
    const onClose = vi.fn();
    mockFetch({ "POST /api/contacts": () => jsonResponse(400, answer) });
    renderPage(<ContactModal open onClose={onClose} />, { session: session() });
    await userEvent.type(screen.getByLabelText("Nome"), "Maria");
    await userEvent.type(screen.getByLabelText("Número do WhatsApp"), "5511987654321{Enter}");
    await waitFor(() => expect(screen.getAllByText(text)).toHaveLength(2));
    expect(screen.getByLabelText("Número do WhatsApp")).toHaveAttribute("aria-invalid", "true");
    expect(onClose).not.toHaveBeenCalled();
  });
});
