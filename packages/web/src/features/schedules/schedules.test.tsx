import type { ScheduleDTO } from "@balcao/shared";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { act } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AppSocket } from "../../api/socket";
import { SocketContext } from "../../api/SocketProvider";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import { ScheduleModal } from "./ScheduleModal";
import SchedulesPage, { previewBody } from "./SchedulesPage";
import { formatScheduleTime, fromLocalInput, toLocalInput } from "./time";

const TZ = "America/Sao_Paulo";
const company = {
  id: 10,
  name: "Acme",
  dueDate: "2099-12-31",
  status: true,
  campaignsEnabled: true,
  planId: 1,
  email: "acme@example.com",
  trialExpiration: null,
  timeZone: TZ,
};
const attendant = () => makeUser({ id: 7, profile: "user", company });

const schedule = (overrides: Partial<ScheduleDTO> = {}): ScheduleDTO => ({
  id: 1,
  companyId: 10,
  body: "Olá! Sua consulta está confirmada para amanhã às 10h.",
  sendAt: "2030-03-10T13:00:00.000Z",
  sentAt: null,
  status: "PENDENTE",
  contactId: 5,
  contact: { id: 5, name: "Maria Souza", number: "5511988887777" },
  ticketId: null,
  userId: 7,
  user: { id: 7, name: "Bia" },
  connectionId: null,
  lastError: null,
  createdAt: "2030-03-01T12:00:00.000Z",
  updatedAt: "2030-03-01T12:00:00.000Z",
  ...overrides,
});

function fakeSocket() {
  const handlers = new Map<string, (payload: unknown) => void>();
  const socket = { on: (e: string, fn: (p: unknown) => void) => handlers.set(e, fn), off: (e: string) => handlers.delete(e) };
  return { socket: socket as unknown as AppSocket, emit: (e: string, p: unknown) => act(() => handlers.get(e)?.(p)) };
}

afterEach(() => vi.useRealTimers());

describe("company clock", () => {
  it("formats DD/MM/YYYY HH:mm:ss and reads a datetime-local value in the company's time zone, not the browser's", () => {
    expect(formatScheduleTime("2030-03-10T13:05:09.000Z", TZ)).toBe("10/03/2030 10:05:09");
    expect(formatScheduleTime("2030-03-10T13:05:09.000Z", "Asia/Tokyo")).toBe("10/03/2030 22:05:09");
    expect(fromLocalInput("2030-03-10T10:05", TZ)!.toISOString()).toBe("2030-03-10T13:05:00.000Z");
    expect(toLocalInput(new Date("2030-03-10T13:05:00.000Z"), TZ)).toBe("2030-03-10T10:05");
    // New York changes to daylight saving on 2030-03-10: 12:00 there is 16:00 UTC.
    expect(fromLocalInput("2030-03-10T12:00", "America/New_York")!.toISOString()).toBe("2030-03-10T16:00:00.000Z");
    expect(fromLocalInput("amanhã", TZ)).toBeNull();
  });

  it("cuts the body preview at 25 characters", () => {
    expect(previewBody("Curta")).toBe("Curta");
    expect(previewBody("1234567890123456789012345")).toBe("1234567890123456789012345");
    expect(previewBody("12345678901234567890123456")).toBe("1234567890123456789012345…");
  });
});

describe("ScheduleModal", () => {
  it("shows the spec's texts, starts one hour ahead, refuses a past time and posts the instant with the ticket", async () => {
    const { calls } = mockFetch({
      "POST /api/schedules": ({ body }) => jsonResponse(201, schedule({ ...(body as object), id: 3 })),
    });
    const onClose = vi.fn();
    renderPage(<ScheduleModal open onClose={onClose} contact={{ id: 5, name: "Maria Souza", number: "5511988887777" }} ticketId={44} />, {
      session: fakeSession(attendant()),
    });
    expect(screen.getByRole("dialog", { name: "Novo agendamento" })).toBeInTheDocument();
    const contact = screen.getByRole("combobox", { name: "Contato" });
    expect(contact).toHaveValue("Maria Souza - +55 11 98888 7777");
    expect(contact).toBeDisabled();
    const when = screen.getByLabelText(/Data e hora de envio/) as HTMLInputElement;
    const defaultAt = fromLocalInput(when.value, TZ)!.getTime();
    expect(defaultAt - Date.now()).toBeGreaterThan(58 * 60_000);
    expect(defaultAt - Date.now()).toBeLessThan(61 * 60_000);

    await userEvent.click(screen.getByRole("button", { name: "Agendar" }));
    expect(await screen.findByText("Obrigatório")).toBeInTheDocument();
    await userEvent.type(screen.getByTestId("schedule-body"), "Oi");
    await userEvent.click(screen.getByRole("button", { name: "Agendar" }));
    expect(await screen.findByText("Mensagem muito curta")).toBeInTheDocument();

    await userEvent.type(screen.getByTestId("schedule-body"), ", {{{{firstName}}! Lembrete da consulta.");
    fireEvent.change(when, { target: { value: toLocalInput(new Date(Date.now() - 3_600_000), TZ) } });
    await userEvent.click(screen.getByRole("button", { name: "Agendar" }));
    expect(await screen.findByText("A data de envio já passou. Escolha um horário no futuro.")).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    fireEvent.change(when, { target: { value: "2030-03-10T10:00" } });
    await userEvent.click(screen.getByRole("button", { name: "Agendar" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls[0]!.body).toEqual({
      contactId: 5,
      body: "Oi, {{firstName}}! Lembrete da consulta.",
      sendAt: "2030-03-10T13:00:00.000Z",
      ticketId: 44,
    });
  });

  it("searches contacts from 3 characters and requires one", async () => {
    const { calls } = mockFetch({
      "GET /api/contacts": () =>
        jsonResponse(200, {
          contacts: [
            {
              id: 8,
              name: "João Lima",
              number: "5511977776666",
              email: "",
              profilePicUrl: "",
              isGroup: false,
              companyId: 10,
              createdAt: "",
              updatedAt: "",
            },
          ],
          hasMore: false,
        }),
      "POST /api/schedules": ({ body }) => jsonResponse(201, schedule({ ...(body as object), id: 4 })),
    });
    renderPage(<ScheduleModal open onClose={() => {}} />, { session: fakeSession(attendant()) });
    await userEvent.type(screen.getByTestId("schedule-body"), "Mensagem de teste");
    await userEvent.click(screen.getByRole("button", { name: "Agendar" }));
    expect(await screen.findByText("Obrigatório")).toBeInTheDocument();
    const contact = screen.getByRole("combobox", { name: "Contato" });
    await userEvent.type(contact, "jo");
    expect(await screen.findByText("Digite ao menos 3 letras para buscar")).toBeInTheDocument();
    await userEvent.type(contact, "ão");
    await userEvent.click(await screen.findByRole("option", { name: "João Lima - +55 11 97777 6666" }, { timeout: 3000 }));
    await userEvent.click(screen.getByRole("button", { name: "Agendar" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(calls.find((c) => c.method === "POST")!.body).toMatchObject({ contactId: 8, body: "Mensagem de teste" });
  });

  it("titles the dialog with the status, shows the failure and retries it; once sent it is read-only without save", async () => {
    const { calls } = mockFetch({ "POST /api/schedules/2/retry": () => jsonResponse(200, schedule({ id: 2, status: "PENDENTE" })) });
    const onClose = vi.fn();
    const failed = schedule({ id: 2, status: "ERRO", lastError: "ERR_WAPP_NOT_INITIALIZED" });
    const view = renderPage(<ScheduleModal open onClose={onClose} schedule={failed} />, { session: fakeSession(attendant()) });
    expect(screen.getByRole("dialog", { name: "Erro de Envio" })).toBeInTheDocument();
    expect(screen.getByTestId("schedule-error")).toHaveTextContent("Esta conexão não foi inicializada");
    expect(screen.getByRole("button", { name: "Salvar" })).toBeEnabled();
    await userEvent.click(screen.getByRole("button", { name: "Tentar novamente agora" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(["POST /api/schedules/2/retry"]);
    view.unmount();

    renderPage(<ScheduleModal open onClose={() => {}} schedule={schedule({ status: "ENVIADA", sentAt: "2030-03-10T13:00:02.000Z" })} />, {
      session: fakeSession(attendant()),
    });
    expect(screen.getByRole("dialog", { name: "Mensagem enviada" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Salvar" })).not.toBeInTheDocument();
    expect(screen.getByTestId("schedule-body")).toBeDisabled();
    expect(screen.getByRole("button", { name: "Fechar" })).toBeInTheDocument();
  });

  it("is read-only for another attendant's schedule", () => {
    mockFetch({});
    renderPage(<ScheduleModal open onClose={() => {}} schedule={schedule({ userId: 99 })} />, { session: fakeSession(attendant()) });
    expect(screen.getByRole("dialog", { name: "Agendamento pendente" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Salvar" })).not.toBeInTheDocument();
  });
});

describe("SchedulesPage", () => {
  it("lists contact, preview, company-clock time and status, follows `schedule` events, and opens a new one for ?contactId=", async () => {
    mockFetch({
      "GET /api/schedules/": () =>
        jsonResponse(200, {
          schedules: [schedule(), schedule({ id: 2, userId: 99, body: "Outro", contact: { id: 6, name: "Pedro", number: null } })],
          hasMore: false,
        }),
      "GET /api/contacts/5": () =>
        jsonResponse(200, {
          id: 5,
          name: "Maria Souza",
          number: "5511988887777",
          email: "",
          profilePicUrl: "",
          isGroup: false,
          companyId: 10,
          createdAt: "",
          updatedAt: "",
        }),
    });
    const { socket, emit } = fakeSocket();
    const { router } = renderPage(
      <SocketContext.Provider value={socket}>
        <SchedulesPage />
      </SocketContext.Provider>,
      { session: fakeSession(attendant()), path: "/schedules?contactId=5", routePath: "/schedules" },
    );
    const dialog = await screen.findByRole("dialog", { name: "Novo agendamento" });
    expect(within(dialog).getByRole("combobox", { name: "Contato" })).toHaveValue("Maria Souza - +55 11 98888 7777");
    await waitFor(() => expect(router.location().search).toBe(""));
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancelar" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());

    const row = (await screen.findByText("Maria Souza")).closest("tr")!;
    expect(within(row).getByText("Olá! Sua consulta está co…")).toBeInTheDocument();
    expect(within(row).getByText("10/03/2030 10:00:00")).toBeInTheDocument();
    expect(within(row).getByTestId("schedule-status")).toHaveTextContent("Pendente");
    expect(within(row).getByRole("button", { name: "Editar agendamento de Maria Souza" })).toBeInTheDocument();
    // Another attendant's schedule: view only, no delete.
    const other = screen.getByText("Pedro").closest("tr")!;
    expect(within(other).getByRole("button", { name: "Ver agendamento de Pedro" })).toBeInTheDocument();
    expect(within(other).queryByRole("button", { name: /Excluir/ })).not.toBeInTheDocument();

    emit("schedule", { action: "update", schedule: schedule({ status: "ENVIADA", sentAt: "2030-03-10T13:00:01.000Z" }) });
    await waitFor(() => expect(within(screen.getByText("Maria Souza").closest("tr")!).getByTestId("schedule-status")).toHaveTextContent("Enviada"));
    emit("schedule", {
      action: "create",
      schedule: schedule({ id: 9, createdAt: "2030-03-02T00:00:00.000Z", contact: { id: 7, name: "Nova Cliente", number: null } }),
    });
    expect(await screen.findByText("Nova Cliente")).toBeInTheDocument();
    expect(screen.getAllByTestId("schedule-row")[0]).toHaveTextContent("Nova Cliente");
    emit("schedule", { action: "delete", scheduleId: 2 });
    await waitFor(() => expect(screen.queryByText("Pedro")).not.toBeInTheDocument());
  });
});
