import type { SimulatorGroupDTO } from "@balcao/shared";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import { GroupsPanel, parseParticipants } from "./GroupsPanel";

const admin = makeUser({ id: 1, profile: "admin" });

const group: SimulatorGroupDTO = {
  id: "120363000000000042",
  subject: "Condomínio",
  participants: [
    { number: "5511966660001", name: "Carla" },
    { number: "5511966660002", name: "Diego" },
  ],
  messages: [
    {
      id: "G1",
      direction: "out",
      kind: "chat",
      body: "a água vai faltar?",
      ack: 1,
      deleted: false,
      hasMedia: false,
      timestamp: "2026-11-24T10:00:00.000Z",
      from: "5511966660001",
    },
    {
      id: "G2",
      direction: "in",
      kind: "chat",
      body: "sim, das 9h às 12h",
      ack: 1,
      deleted: false,
      hasMedia: false,
      timestamp: "2026-11-24T10:01:00.000Z",
    },
  ],
};

describe("GroupsPanel (simulator groups, issue 21)", () => {
  it("parses 'number name' participants separated by commas", () => {
    expect(parseParticipants("5511966660001 Carla Souza, +5511966660002")).toEqual([
      { number: "5511966660001", name: "Carla Souza" },
      { number: "5511966660002" },
    ]);
  });

  it("creates a group, shows each message with its participant's name, writes as a participant and renames", async () => {
    let groups: SimulatorGroupDTO[] = [];
    const { calls } = mockFetch({
      "GET /api/simulator/5/groups": () => jsonResponse(200, groups),
      "POST /api/simulator/5/groups": () => {
        groups = [group];
        return jsonResponse(201, group);
      },
      "POST /api/simulator/5/groups/120363000000000042/messages": () => jsonResponse(201, group.messages[0]),
      "PUT /api/simulator/5/groups/120363000000000042": () => jsonResponse(200, { ...group, subject: "Bloco B" }),
    });
    renderPage(<GroupsPanel access={{ connectionId: 5, key: null }} />, { session: fakeSession(admin), path: "/simulator/5" });

    await userEvent.type(screen.getByRole("textbox", { name: "Assunto do grupo" }), "Condomínio");
    await userEvent.type(screen.getByRole("textbox", { name: "Participantes" }), "5511966660001 Carla, 5511966660002 Diego");
    await userEvent.click(screen.getByRole("button", { name: "Criar grupo" }));
    await waitFor(() => expect(calls.find((c) => c.method === "POST")).toBeTruthy());
    expect(calls.find((c) => c.method === "POST")!.body).toEqual({
      subject: "Condomínio",
      participants: [
        { number: "5511966660001", name: "Carla" },
        { number: "5511966660002", name: "Diego" },
      ],
    });

    const card = await screen.findByRole("article", { name: "Condomínio" });
    const log = within(card).getByRole("list", { name: "Mensagens do grupo Condomínio" });
    expect(within(log).getByText("a água vai faltar?")).toBeInTheDocument();
    expect(within(log).getByText("Carla")).toBeInTheDocument();
    expect(within(log).getByText("Empresa")).toBeInTheDocument();

    await userEvent.click(within(card).getByRole("combobox", { name: "Quem escreve" }));
    await userEvent.click(await screen.findByRole("option", { name: "Diego" }));
    await userEvent.type(within(card).getByRole("textbox", { name: "Mensagem no grupo" }), "também quero saber");
    await userEvent.click(within(card).getByRole("button", { name: "Enviar no grupo" }));
    await waitFor(() =>
      expect(calls.find((c) => c.url.endsWith("/groups/120363000000000042/messages"))?.body).toEqual({
        from: "5511966660002",
        body: "também quero saber",
      }),
    );

    const rename = within(card).getByRole("textbox", { name: "Novo assunto" });
    await userEvent.clear(rename);
    await userEvent.type(rename, "Bloco B");
    await userEvent.click(within(card).getByRole("button", { name: "Renomear" }));
    await waitFor(() => expect(calls.find((c) => c.method === "PUT")?.body).toEqual({ subject: "Bloco B" }));
  }, 30_000);
});
