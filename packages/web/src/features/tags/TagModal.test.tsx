import { COLOR_PALETTE, type TagDTO } from "@balcao/shared";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import { canToggleKanban, TagModal } from "./TagModal";

const tag = (overrides: Partial<TagDTO> = {}): TagDTO => ({
  id: 4,
  companyId: 10,
  name: "Urgente",
  color: "#D32F2F",
  kanban: 1,
  userId: 1,
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
  ticketsCount: 2,
  ...overrides,
});

describe("TagModal", () => {
  it("shows the Kanban switch to admins and supervisors, never to attendants", () => {
    expect(canToggleKanban(makeUser({ profile: "admin" }))).toBe(true);
    expect(canToggleKanban({ profile: "supervisor" })).toBe(true);
    expect(canToggleKanban(makeUser({ profile: "user" }))).toBe(false);
    expect(canToggleKanban(null)).toBe(false);

    mockFetch({});
    const { unmount } = renderPage(<TagModal open onClose={() => {}} />, { session: fakeSession(makeUser({ profile: "user" })) });
    expect(screen.getByLabelText("Nome")).toBeInTheDocument();
    expect(screen.queryByRole("switch", { name: "Kanban" })).not.toBeInTheDocument();
    unmount();

    const admin = renderPage(<TagModal open onClose={() => {}} />, { session: fakeSession(makeUser({ profile: "admin" })) });
    expect(screen.getByRole("switch", { name: "Kanban" })).not.toBeChecked();
    admin.unmount();

    renderPage(<TagModal open onClose={() => {}} />, { session: fakeSession(makeUser({ profile: "supervisor" })) });
    expect(screen.getByRole("switch", { name: "Kanban" })).toBeInTheDocument();
  });

  it("validates the name with the spec's texts and creates with colour and kanban", async () => {
    const onClose = vi.fn();
    const { calls } = mockFetch({ "POST /api/tags": ({ body }) => jsonResponse(201, tag({ id: 9, ...(body as object) })) });
    renderPage(<TagModal open onClose={onClose} />, { session: fakeSession(makeUser({ profile: "admin" })) });
    const name = screen.getByLabelText("Nome");
    expect(name).toHaveFocus();
    await userEvent.click(screen.getByRole("button", { name: "Adicionar" }));
    expect(await screen.findByText("Obrigatório")).toBeInTheDocument();
    await userEvent.type(name, "VI");
    await userEvent.click(screen.getByRole("button", { name: "Adicionar" }));
    expect(await screen.findByText("Mensagem muito curta")).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    await userEvent.type(name, "P");
    await userEvent.click(screen.getByLabelText(`Cor ${COLOR_PALETTE[13]}`));
    await userEvent.click(screen.getByRole("switch", { name: "Kanban" }));
    await userEvent.type(name, "{Enter}");
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls[0]!.body).toEqual({ name: "VIP", color: COLOR_PALETTE[13], kanban: 1 });
    expect(await screen.findByText("Tag adicionada com sucesso.")).toBeInTheDocument();
  });

  it("lets an attendant create a tag without sending kanban", async () => {
    const onClose = vi.fn();
    const { calls } = mockFetch({ "POST /api/tags": ({ body }) => jsonResponse(201, tag({ id: 9, kanban: 0, ...(body as object) })) });
    renderPage(<TagModal open onClose={onClose} />, { session: fakeSession(makeUser({ profile: "user" })) });
    await userEvent.type(screen.getByLabelText("Nome"), "Retorno{Enter}");
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls[0]!.body).toEqual({ name: "Retorno", color: COLOR_PALETTE[0] });
  });

  it("edits a tag with its colour selected and its kanban state", async () => {
    const onClose = vi.fn();
    const { calls } = mockFetch({ "PUT /api/tags/4": ({ body }) => jsonResponse(200, tag({ ...(body as object), kanban: 0 })) });
    renderPage(<TagModal open tag={tag()} onClose={onClose} />, { session: fakeSession(makeUser({ profile: "admin" })) });
    expect(screen.getByRole("dialog", { name: "Editar tag" })).toBeInTheDocument();
    expect(screen.getByLabelText("Cor #D32F2F")).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByRole("switch", { name: "Kanban" })).toBeChecked();
    await userEvent.click(screen.getByRole("switch", { name: "Kanban" }));
    await userEvent.click(screen.getByRole("button", { name: "Salvar" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls[0]!.body).toEqual({ name: "Urgente", color: "#D32F2F", kanban: 0 });
    expect(await screen.findByText("Tag atualizada com sucesso.")).toBeInTheDocument();
  });
});
