import type { AnnouncementDTO } from "@balcao/shared";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { act } from "react";
import { describe, expect, it, vi } from "vitest";
import type { AppSocket } from "../../api/socket";
import { SocketContext } from "../../api/SocketProvider";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import { attachmentProblem } from "./AnnouncementModal";
import { AnnouncementsPopover } from "./AnnouncementsPopover";

const record = (id: number, title: string, overrides: Partial<AnnouncementDTO> = {}): AnnouncementDTO => ({
  id,
  title,
  text: `Texto de ${title}`,
  priority: 3,
  mediaPath: null,
  mediaName: null,
  status: true,
  createdAt: "2026-03-10T12:00:00.000Z",
  updatedAt: "2026-03-10T12:00:00.000Z",
  read: false,
  ...overrides,
});

function fakeSocket() {
  const handlers = new Map<string, (payload: unknown) => void>();
  const socket = { on: (e: string, fn: (p: unknown) => void) => handlers.set(e, fn), off: (e: string) => handlers.delete(e) };
  return { socket: socket as unknown as AppSocket, emit: (e: string, p: unknown) => act(() => handlers.get(e)?.(p)) };
}

describe("AnnouncementsPopover", () => {
  it("shows the unread count, lists active announcements by priority colour, opens the viewer and marks it read", async () => {
    let records = [record(2, "Manutenção", { priority: 1 }), record(1, "Boas-vindas", { read: true })];
    let unreadCount = 1;
    const { calls } = mockFetch({
      "GET /api/announcements/": () => jsonResponse(200, { records, hasMore: false, unreadCount }),
      "POST /api/announcements/2/read": () => {
        records = records.map((r) => (r.id === 2 ? { ...r, read: true } : r));
        unreadCount = 0;
        return jsonResponse(200, { ...records[0], read: true });
      },
    });
    const { socket, emit } = fakeSocket();
    renderPage(
      <SocketContext.Provider value={socket}>
        <AnnouncementsPopover />
      </SocketContext.Provider>,
      { session: fakeSession(makeUser({ profile: "user" })) },
    );
    await waitFor(() => expect(screen.getByTestId("announcements-unread")).toHaveTextContent("1"));
    await userEvent.click(screen.getByRole("button", { name: "Informativos: 1 não lido(s)" }));
    const items = await screen.findAllByTestId("announcement-item");
    expect(items.map((i) => [i.textContent?.slice(0, 12), i.getAttribute("data-unread")])).toEqual([
      ["Manutenção10", "true"],
      ["Boas-vindas1", "false"],
    ]);
    await userEvent.click(items[0]!);
    const viewer = await screen.findByRole("dialog", { name: /Manutenção/ });
    expect(viewer).toHaveTextContent("Texto de Manutenção");
    expect(within(viewer).getByText("Alta").closest("[data-priority]")).toHaveAttribute("data-priority", "1");
    await waitFor(() => expect(calls.some((c) => c.method === "POST" && c.url === "/api/announcements/2/read")).toBe(true));
    await userEvent.click(within(viewer).getByRole("button", { name: "Fechar" }));
    expect(await screen.findByRole("button", { name: "Informativos: 0 não lido(s)" })).toBeInTheDocument();

    // A new one arrives live: a toast, and the badge counts it.
    records = [record(3, "Nova versão"), ...records];
    unreadCount = 1;
    emit("announcement", { action: "create", record: record(3, "Nova versão") });
    expect(await screen.findByText("Novo informativo: Nova versão")).toBeInTheDocument();
    expect(await screen.findByRole("button", { name: "Informativos: 1 não lido(s)" })).toBeInTheDocument();
  });

  it("says when there is nothing to read", async () => {
    mockFetch({ "GET /api/announcements/": () => jsonResponse(200, { records: [], hasMore: false, unreadCount: 0 }) });
    renderPage(<AnnouncementsPopover />, { session: fakeSession(makeUser()) });
    await userEvent.click(await screen.findByRole("button", { name: "Informativos: 0 não lido(s)" }));
    expect(await screen.findByText("Nenhum informativo")).toBeInTheDocument();
  });
});

describe("attachmentProblem (spec §5: .png, .jpg, .jpeg)", () => {
  it("accepts the three image extensions within the size limit", () => {
    expect(attachmentProblem({ name: "cartaz.PNG", size: 1000 })).toBeNull();
    expect(attachmentProblem({ name: "foto.jpeg", size: 1000 })).toBeNull();
    expect(attachmentProblem({ name: "foto.jpg", size: 1000 })).toBeNull();
    expect(attachmentProblem({ name: "doc.pdf", size: 1000 })).toBe("type");
    expect(attachmentProblem({ name: "anim.gif", size: 1000 })).toBe("type");
    expect(attachmentProblem({ name: "grande.png", size: 50 * 1024 * 1024 })).toBe("size");
    vi.restoreAllMocks();
  });
});
