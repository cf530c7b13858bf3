import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { fakeSession, makeUser, mockFetch, renderPage } from "../../test/utils";
import { makeTicket } from "./fixtures";
import { lastMessagePreview, TicketListItem } from "./TicketListItem";

function renderRow(ticket = makeTicket(), profile: "admin" | "user" = "user") {
  mockFetch({});
  const onOpen = vi.fn();
  const onTransition = vi.fn();
  const onSpy = vi.fn();
  renderPage(<TicketListItem ticket={ticket} selected={false} busy={false} onOpen={onOpen} onTransition={onTransition} onSpy={onSpy} />, {
    session: fakeSession(makeUser({ profile })),
  });
  return { onOpen, onTransition, onSpy, row: screen.getByTestId("ticket-row") };
}

describe("TicketListItem", () => {
  it("shows contact, last message, connection, attendant, queue, tags, unread and today's time", () => {
    const now = new Date();
    now.setHours(9, 5, 0, 0);
    const { row } = renderRow(
      makeTicket({ unreadMessages: 3, updatedAt: now.toISOString(), chatbot: true, tags: [{ id: 1, name: "VIP", color: "#123456" }] }),
    );
    expect(within(row).getByText("Cliente 1")).toBeInTheDocument();
    expect(within(row).getByTestId("ticket-last-message")).toHaveTextContent("Olá");
    for (const text of ["Loja", "Ana Admin", "Vendas", "VIP", "3", "09:05"]) expect(within(row).getByText(text)).toBeInTheDocument();
    expect(within(row).getByLabelText("Chatbot")).toBeInTheDocument();
  });

  it("shows 'SEM FILA', dd/MM/yyyy for older days and 'Localização' for a location", () => {
    const { row } = renderRow(
      makeTicket({ queueId: null, queue: null, updatedAt: new Date(2024, 2, 7, 15).toISOString(), lastMessage: "data:image/png;base64,AAA" }),
    );
    expect(within(row).getByText("SEM FILA")).toBeInTheDocument();
    expect(within(row).getByTestId("ticket-time")).toHaveTextContent("07/03/2024");
    expect(within(row).getByTestId("ticket-last-message")).toHaveTextContent("Localização");
  });

  it("pending rows offer Aceitar and Finalizar and cannot be opened by click", async () => {
    const { onOpen, onTransition, row } = renderRow(makeTicket({ status: "pending", userId: null, user: null }));
    expect(within(row).queryByRole("button", { name: "Reabrir" })).not.toBeInTheDocument();
    await userEvent.click(within(row).getByRole("button", { name: /Abrir atendimento/ }));
    expect(onOpen).not.toHaveBeenCalled();
    await userEvent.click(within(row).getByRole("button", { name: "Aceitar" }));
    expect(onTransition).toHaveBeenCalledWith(expect.objectContaining({ id: 1 }), "accept");
    await userEvent.click(within(row).getByRole("button", { name: "Finalizar" }));
    expect(onTransition).toHaveBeenLastCalledWith(expect.objectContaining({ id: 1 }), "resolve");
  });

  it("open rows open on click and offer Finalizar", async () => {
    const open = renderRow(makeTicket({ status: "open" }));
    expect(within(open.row).queryByRole("button", { name: "Aceitar" })).not.toBeInTheDocument();
    expect(within(open.row).getByRole("button", { name: "Finalizar" })).toBeInTheDocument();
    await userEvent.click(within(open.row).getByRole("button", { name: /Abrir atendimento/ }));
    expect(open.onOpen).toHaveBeenCalled();
  });

  it("closed rows offer only Reabrir", () => {
    const { row } = renderRow(makeTicket({ status: "closed" }));
    expect(within(row).getByRole("button", { name: "Reabrir" })).toBeInTheDocument();
    expect(within(row).queryByRole("button", { name: "Finalizar" })).not.toBeInTheDocument();
    expect(within(row).queryByRole("button", { name: "Aceitar" })).not.toBeInTheDocument();
  });

  it("admins get the 'Espiar Conversa' eye; attendants do not", async () => {
    const admin = renderRow(makeTicket({ status: "pending", userId: null, user: null }), "admin");
    await userEvent.click(within(admin.row).getByRole("button", { name: "Espiar Conversa" }));
    expect(admin.onSpy).toHaveBeenCalled();
  });

  it("hides the eye from attendants", () => {
    const { row } = renderRow(makeTicket(), "user");
    expect(within(row).queryByRole("button", { name: "Espiar Conversa" })).not.toBeInTheDocument();
  });
});

describe("lastMessagePreview", () => {
  it("shows 'Localização' for location bodies and pictures", () => {
    expect(lastMessagePreview("data:image/png;base64,xx", "Localização")).toBe("Localização");
    expect(lastMessagePreview("|https://maps.google.com/maps?q=1|", "Localização")).toBe("Localização");
    expect(lastMessagePreview("Oi", "Localização")).toBe("Oi");
  });
});
