import type { ContactListDTO, ContactListImportDTO, ContactListItemDTO } from "@balcao/shared";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { renderWithSocket } from "../connections/testSocket";
import { fakeSession, jsonResponse, makeUser, mockFetch } from "../../test/utils";
import ContactListItemsPage from "./ContactListItemsPage";
import ContactListsPage from "./ContactListsPage";

const stamp = "2026-01-01T00:00:00.000Z";
const list = (id: number, name: string, contactsCount = 0): ContactListDTO => ({
  id,
  companyId: 10,
  name,
  contactsCount,
  createdAt: stamp,
  updatedAt: stamp,
});
const item = (id: number, name: string, number: string, isWhatsappValid: boolean | null = null): ContactListItemDTO => ({
  id,
  companyId: 10,
  contactListId: 5,
  name,
  number,
  email: "",
  isWhatsappValid,
  createdAt: stamp,
  updatedAt: stamp,
});
const importOf = (overrides: Partial<ContactListImportDTO>): ContactListImportDTO => ({
  id: 77,
  contactListId: 5,
  fileName: "contatos.xlsx",
  status: "queued",
  totalRows: null,
  processedRows: 0,
  inserted: 0,
  duplicates: 0,
  invalid: 0,
  errors: [],
  error: null,
  createdAt: stamp,
  finishedAt: null,
  ...overrides,
});

const admin = () => fakeSession(makeUser({ profile: "admin" }));

describe("ContactListsPage", () => {
  it("lists names and counts, follows ContactList events, opens a list's contacts and deletes after confirmation", async () => {
    const { calls } = mockFetch({
      "GET /api/contact-lists/": () => jsonResponse(200, { records: [list(1, "Clientes", 1200), list(2, "Fornecedores", 3)], hasMore: false }),
      "DELETE /api/contact-lists/2": () => jsonResponse(204),
    });
    const { emit } = renderWithSocket(<ContactListsPage />, { session: admin(), path: "/contact-lists" });
    const row = (await screen.findByText("Clientes")).closest("tr")!;
    expect(within(row).getByTestId("contact-list-count")).toHaveTextContent("1.200");
    expect(screen.getByRole("button", { name: "Baixar planilha de exemplo" })).toBeInTheDocument();

    emit("ContactList", { action: "create", record: list(3, "Black Friday") });
    expect(await screen.findByText("Black Friday")).toBeInTheDocument();
    emit("ContactList", { action: "import", import: importOf({ id: 9, contactListId: 3, status: "done" }), record: list(3, "Black Friday", 40) });
    await waitFor(() => expect(within(screen.getByText("Black Friday").closest("tr")!).getByTestId("contact-list-count")).toHaveTextContent("40"));

    await userEvent.click(screen.getByRole("button", { name: "Excluir Fornecedores" }));
    const dialog = await screen.findByRole("dialog", { name: "Excluir a lista Fornecedores?" });
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    await userEvent.click(within(dialog).getByRole("button", { name: "Excluir" }));
    await waitFor(() => expect(screen.queryByText("Fornecedores")).not.toBeInTheDocument());
    expect(await screen.findByText("Lista de contatos excluída com sucesso.")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());

    await userEvent.click(screen.getByRole("button", { name: "Contatos de Clientes" }));
    expect(await screen.findByTestId("location")).toHaveTextContent("/contact-lists/1/contacts");
  });

  it("validates the name with the spec's texts before saving", async () => {
    const { calls } = mockFetch({
      "GET /api/contact-lists/": () => jsonResponse(200, { records: [], hasMore: false }),
      "POST /api/contact-lists": (call) => jsonResponse(201, list(4, (call.body as { name: string }).name)),
    });
    renderWithSocket(<ContactListsPage />, { session: admin(), path: "/contact-lists" });
    expect(await screen.findByText("Nenhuma lista de contatos")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Adicionar lista" }));
    const dialog = await screen.findByRole("dialog", { name: "Nova lista de contatos" });
    await userEvent.type(within(dialog).getByLabelText("Nome"), "A");
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    expect(await within(dialog).findByText("Muito curto!")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "POST")).toBe(false);
    await userEvent.type(within(dialog).getByLabelText("Nome"), "ntigos");
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    expect(await screen.findByText("Antigos")).toBeInTheDocument();
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ name: "Antigos" });
  });
});

describe("ContactListItemsPage", () => {
  const routes = {
    "GET /api/contact-lists/5": () => jsonResponse(200, list(5, "Clientes", 2)),
    "GET /api/contact-list-items": () =>
      jsonResponse(200, { contacts: [item(1, "Ana Souza", "5511987650001", true), item(2, "Bruno Lima", "5511987650002", false)], hasMore: false }),
  };
  const render = () =>
    renderWithSocket(<ContactListItemsPage />, {
      session: admin(),
      path: "/contact-lists/5/contacts",
      routePath: "/contact-lists/:contactListId/contacts",
    });

  it("shows validity, name and number; follows the list's own events; goes back to the lists", async () => {
    const { calls } = mockFetch(routes);
    const { emit } = render();
    expect(await screen.findByRole("heading", { name: "Contatos da lista: Clientes" })).toBeInTheDocument();
    const ana = (await screen.findByText("Ana Souza")).closest("tr")!;
    expect(within(ana).getByRole("img", { name: "Número com WhatsApp" })).toBeInTheDocument();
    expect(within(screen.getByText("Bruno Lima").closest("tr")!).getByRole("img", { name: "Número sem WhatsApp" })).toBeInTheDocument();
    expect(calls.find((c) => c.url.startsWith("/api/contact-list-items"))?.url).toContain("contactListId=5");

    emit("ContactListItem-5", { action: "create", record: item(3, "Carla Dias", "5511987650003") });
    const carla = (await screen.findByText("Carla Dias")).closest("tr")!;
    expect(within(carla).getByRole("img", { name: "WhatsApp ainda não verificado" })).toBeInTheDocument();
    emit("ContactListItem-5", { action: "update", record: item(3, "Carla Dias", "5511987650003", true) });
    await waitFor(() =>
      expect(within(screen.getByText("Carla Dias").closest("tr")!).getByRole("img", { name: "Número com WhatsApp" })).toBeInTheDocument(),
    );
    emit("ContactListItem-5", { action: "delete", id: 1, contactListId: 5 });
    await waitFor(() => expect(screen.queryByText("Ana Souza")).not.toBeInTheDocument());

    await userEvent.click(screen.getByRole("button", { name: "Voltar" }));
    expect(await screen.findByTestId("location")).toHaveTextContent("/contact-lists");
  });

  it("imports a spreadsheet: progress bar while the server works, then the rows it refused with line and reason", async () => {
    const { calls } = mockFetch({ ...routes, "POST /api/contact-lists/5/upload": () => jsonResponse(202, importOf({})) });
    const { emit } = render();
    await screen.findByText("Ana Souza");
    const file = new File(["fake"], "contatos.xlsx", { type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" });
    await userEvent.upload(screen.getByTestId("spreadsheet-input"), file);

    const dialog = await screen.findByRole("dialog", { name: "Importação da planilha" });
    const upload = calls.find((c) => c.method === "POST")!;
    expect(upload.body).toBeInstanceOf(FormData);
    expect((upload.body as FormData).get("file")).toBeInstanceOf(File);
    await within(dialog).findByText("Lendo a planilha…");

    emit("ContactList", { action: "import", import: importOf({ status: "running", totalRows: 2000, processedRows: 1000 }) });
    expect(await within(dialog).findByText("1000 de 2000 linhas processadas")).toBeInTheDocument();
    expect(within(dialog).getByRole("progressbar", { name: "Progresso da importação" })).toHaveAttribute("aria-valuenow", "50");
    // Another list's import is not this one.
    emit("ContactList", { action: "import", import: importOf({ id: 78, status: "done", inserted: 1 }) });
    expect(within(dialog).getByText("1000 de 2000 linhas processadas")).toBeInTheDocument();

    emit("ContactList", {
      action: "import",
      import: importOf({
        status: "done",
        totalRows: 2000,
        processedRows: 2000,
        inserted: 1996,
        duplicates: 2,
        invalid: 2,
        errors: [
          { line: 7, field: "number", reason: "number_invalid", message: "Invalid number", value: "12345" },
          { line: 9, field: "email", reason: "email_invalid", message: "Invalid email", value: "ana@" },
        ],
      }),
      record: list(5, "Clientes", 1998),
    });
    expect(await within(dialog).findByText("1996 contatos importados")).toBeInTheDocument();
    expect(within(dialog).getByText("2 números repetidos ignorados")).toBeInTheDocument();
    expect(within(dialog).getByText("2 linhas com erro")).toBeInTheDocument();
    const rows = within(dialog).getAllByTestId("import-error-row");
    expect(rows.map((r) => r.textContent)).toEqual(["7Número inválido12345", "9Email inválidoana@"]);
    await userEvent.click(within(dialog).getByRole("button", { name: "Fechar" }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Importação da planilha" })).not.toBeInTheDocument());
  });

  it("shows the server's reason when the whole file is refused", async () => {
    mockFetch({ ...routes, "POST /api/contact-lists/5/upload": () => jsonResponse(400, { error: "ERR_CONTACT_LIST_IMPORT_NO_NUMBER_COLUMN" }) });
    render();
    await screen.findByText("Ana Souza");
    await userEvent.upload(screen.getByTestId("spreadsheet-input"), new File(["nome;cidade"], "contatos.csv", { type: "text/csv" }));
    const dialog = await screen.findByRole("dialog", { name: "Importação da planilha" });
    expect(await within(dialog).findByText(/A planilha não tem uma coluna de número/)).toBeInTheDocument();
  });

  it("adds a contact with the spec's validation and the server's duplicate error under the number", async () => {
    const { calls } = mockFetch({
      ...routes,
      "POST /api/contact-list-items": () => jsonResponse(400, { error: "ERR_DUPLICATED_CONTACT_LIST_ITEM" }),
    });
    render();
    await screen.findByText("Ana Souza");
    await userEvent.click(screen.getByRole("button", { name: "Adicionar contato" }));
    const dialog = await screen.findByRole("dialog", { name: "Novo contato" });
    await userEvent.type(within(dialog).getByLabelText("Número"), "123");
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    expect(await within(dialog).findByText("Obrigatório")).toBeInTheDocument();
    expect(within(dialog).getByText("Muito curto!")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "POST")).toBe(false);

    await userEvent.type(within(dialog).getByLabelText("Nome"), "Ana Souza");
    await userEvent.clear(within(dialog).getByLabelText("Número"));
    await userEvent.type(within(dialog).getByLabelText("Número"), "5511987650001");
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    expect(await within(dialog).findAllByText("Este número já está nesta lista.")).not.toHaveLength(0);
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ name: "Ana Souza", number: "5511987650001", email: "", contactListId: 5 });
  });
});
