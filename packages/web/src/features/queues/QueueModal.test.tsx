import { COLOR_PALETTE, DEFAULT_QUEUE_SCHEDULES, type QueueDTO } from "@balcao/shared";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import { makeQueue } from "./fixtures";
import { QueueModal } from "./QueueModal";
import { maskTime } from "./schedules";

const admin = makeUser();
const settings = (scheduleType: string) => () => jsonResponse(200, [{ key: "scheduleType", value: scheduleType }]);

describe("maskTime", () => {
  it("keeps at most four digits shown as HH:mm", () => {
    expect(maskTime("9")).toBe("9");
    expect(maskTime("09")).toBe("09");
    expect(maskTime("093")).toBe("09:3");
    expect(maskTime("0930")).toBe("09:30");
    expect(maskTime("09:301")).toBe("09:30");
    expect(maskTime("ab1c2")).toBe("12");
  });
});

describe("QueueModal", () => {
  it("validates name and colour with the shared schema", async () => {
    const { calls } = mockFetch({ "GET /api/settings": settings("disabled") });
    renderPage(<QueueModal open onClose={() => {}} />, { session: fakeSession(admin) });
    const dialog = screen.getByRole("dialog", { name: "Adicionar fila" });
    expect(within(dialog).getByText("Salve a fila primeiro; depois você poderá montar as opções do chatbot aqui.")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Nome")).toHaveFocus();

    await userEvent.click(within(dialog).getByRole("button", { name: "Salvar" }));
    expect(await within(dialog).findAllByText("Obrigatório")).toHaveLength(2);
    await userEvent.type(within(dialog).getByLabelText("Nome"), "V{Enter}");
    expect(await within(dialog).findByText("Muito curto!")).toBeInTheDocument();
    expect(within(dialog).getByText("Obrigatório")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "POST")).toBe(false);
  }, 30_000);

  it("creates the queue, toasts and then enables the option tree", async () => {
    const { calls } = mockFetch({
      "GET /api/settings": settings("disabled"),
      "POST /api/queue": ({ body }) => jsonResponse(201, makeQueue({ id: 7, ...(body as Partial<QueueDTO>) })),
      "GET /api/queue-options": () => jsonResponse(200, []),
    });
    renderPage(<QueueModal open onClose={() => {}} />, { session: fakeSession(admin) });
    await userEvent.click(screen.getByLabelText("Nome"));
    await userEvent.paste("Vendas");
    await userEvent.click(screen.getByRole("button", { name: COLOR_PALETTE[13] }));
    await userEvent.click(screen.getByLabelText("Mensagem de saudação"));
    await userEvent.paste("Olá!");
    await userEvent.click(screen.getByRole("button", { name: "Salvar" }));

    expect(await screen.findByText("Fila salva com sucesso")).toBeInTheDocument();
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({
      name: "Vendas",
      color: COLOR_PALETTE[13],
      greetingMessage: "Olá!",
      outOfHoursMessage: "",
    });
    // The new queue stays open in edit mode so its options can be built.
    expect(await screen.findByRole("dialog", { name: "Editar fila" })).toBeInTheDocument();
    expect(await screen.findByText(/Nenhuma opção cadastrada/)).toBeInTheDocument();
    expect(screen.queryByText(/Salve a fila primeiro/)).not.toBeInTheDocument();
    expect(calls.some((c) => c.url.startsWith("/api/queue-options?queueId=7&parentId=-1"))).toBe(true);
  }, 30_000);

  it("shows the 'Horários de Atendimento' tab only when scheduleType is 'queue'", async () => {
    for (const scheduleType of ["disabled", "company"]) {
      mockFetch({ "GET /api/settings": settings(scheduleType), "GET /api/queue-options": () => jsonResponse(200, []) });
      const { unmount, queryClient } = renderPage(<QueueModal open queue={makeQueue()} onClose={() => {}} />, { session: fakeSession(admin) });
      await waitFor(() => expect(queryClient.getQueryData(["settings"])).toBeDefined());
      expect(screen.queryByRole("tab", { name: "Horários de Atendimento" })).not.toBeInTheDocument();
      expect(screen.queryByRole("tab", { name: "Dados da Fila" })).not.toBeInTheDocument();
      unmount();
    }

    mockFetch({ "GET /api/settings": settings("queue"), "GET /api/queue-options": () => jsonResponse(200, []) });
    renderPage(<QueueModal open queue={makeQueue()} onClose={() => {}} />, { session: fakeSession(admin) });
    expect(await screen.findByRole("tab", { name: "Horários de Atendimento" })).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Dados da Fila" })).toHaveAttribute("aria-selected", "true");
  }, 30_000);

  it("starts a new queue with the default week and sends it when the tab is shown", async () => {
    const { calls } = mockFetch({
      "GET /api/settings": settings("queue"),
      "POST /api/queue": ({ body }) => jsonResponse(201, makeQueue({ id: 8, ...(body as Partial<QueueDTO>) })),
      "GET /api/queue-options": () => jsonResponse(200, []),
    });
    renderPage(<QueueModal open onClose={() => {}} />, { session: fakeSession(admin) });
    await userEvent.click(screen.getByLabelText("Nome"));
    await userEvent.paste("Suporte");
    await userEvent.click(screen.getByRole("button", { name: COLOR_PALETTE[2] }));
    await userEvent.click(await screen.findByRole("tab", { name: "Horários de Atendimento" }));
    expect(screen.getByLabelText("Sexta-feira — Fim")).toHaveValue("18:00");
    expect(screen.getByLabelText("Sábado — Fim")).toHaveValue("12:00");
    expect(screen.getByLabelText("Domingo — Início")).toHaveValue("00:00");
    await userEvent.click(screen.getByRole("button", { name: "Salvar" }));
    expect(await screen.findByText("Fila salva com sucesso")).toBeInTheDocument();
    const body = calls.find((c) => c.method === "POST")?.body as { schedules: unknown[] };
    expect(body.schedules).toEqual(DEFAULT_QUEUE_SCHEDULES);
  }, 30_000);

  it("edits the weekly hours with masked 4-digit times and sends them with the queue", async () => {
    const onClose = vi.fn();
    const queue = makeQueue({ id: 3 });
    const { calls } = mockFetch({
      "GET /api/settings": settings("queue"),
      "GET /api/queue-options": () => jsonResponse(200, []),
      "PUT /api/queue/3": ({ body }) => jsonResponse(200, { ...queue, ...(body as object) }),
    });
    renderPage(<QueueModal open queue={queue} onClose={onClose} />, { session: fakeSession(admin) });
    await userEvent.click(await screen.findByRole("tab", { name: "Horários de Atendimento" }));
    const panel = screen.getByRole("tabpanel");
    const days = within(panel).getAllByRole("group");
    expect(days.map((d) => d.getAttribute("aria-label"))).toEqual([
      "Segunda-feira",
      "Terça-feira",
      "Quarta-feira",
      "Quinta-feira",
      "Sexta-feira",
      "Sábado",
      "Domingo",
    ]);
    const mondayStart = within(days[0]!).getByLabelText("Segunda-feira — Início");
    expect(mondayStart).toHaveValue("08:00");
    await userEvent.clear(mondayStart);
    await userEvent.type(mondayStart, "0930x5");
    expect(mondayStart).toHaveValue("09:30");

    const sundayEnd = within(days[6]!).getByLabelText("Domingo — Fim");
    await userEvent.clear(sundayEnd);
    await userEvent.type(sundayEnd, "2599");
    await userEvent.click(screen.getByRole("tab", { name: "Dados da Fila" }));
    await userEvent.click(screen.getByRole("button", { name: "Salvar" }));
    // The invalid time sends the user back to the tab holding it.
    expect(await screen.findByText("Horário inválido (HH:mm)")).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Horários de Atendimento" })).toHaveAttribute("aria-selected", "true");
    expect(calls.some((c) => c.method === "PUT")).toBe(false);

    await userEvent.clear(screen.getByLabelText("Domingo — Fim"));
    await userEvent.type(screen.getByLabelText("Domingo — Fim"), "1200");
    await userEvent.click(screen.getByRole("button", { name: "Salvar" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const body = calls.find((c) => c.method === "PUT")?.body as { schedules: { weekdayEn: string; startTime: string; endTime: string }[] };
    expect(body.schedules).toHaveLength(7);
    expect(body.schedules[0]).toMatchObject({ weekdayEn: "monday", startTime: "09:30", endTime: "18:00" });
    expect(body.schedules[6]).toMatchObject({ weekdayEn: "sunday", startTime: "00:00", endTime: "12:00" });
  }, 30_000);

  it("translates a colour already in use and marks the field", async () => {
    mockFetch({
      "GET /api/settings": settings("disabled"),
      "POST /api/queue": () => jsonResponse(400, { error: "ERR_QUEUE_COLOR_ALREADY_EXISTS" }),
    });
    renderPage(<QueueModal open onClose={() => {}} />, { session: fakeSession(admin) });
    await userEvent.click(screen.getByLabelText("Nome"));
    await userEvent.paste("Suporte");
    await userEvent.click(screen.getByRole("button", { name: COLOR_PALETTE[0] }));
    await userEvent.click(screen.getByRole("button", { name: "Salvar" }));
    expect(await screen.findAllByText("Esta cor já está em uso, escolha outra.")).toHaveLength(2);
    expect(screen.getByRole("dialog", { name: "Adicionar fila" })).toBeInTheDocument();
  }, 30_000);
});
