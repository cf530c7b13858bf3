import type { MessageDTO } from "@balcao/shared";
import { QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "../../app/providers";
import { jsonResponse, mockFetch } from "../../test/utils";
import { useMessages } from "../messages/api";
import { useTicketsList } from "./api";
import { makeTicket } from "./fixtures";

afterEach(() => vi.unstubAllGlobals());

function wrapper({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={createQueryClient()}>{children}</QueryClientProvider>;
}

const queryOf = (url: string) => Object.fromEntries(new URL(url, "http://x").searchParams);

describe("infinite lists page by keyset", () => {
  it("the ticket list sends the previous page's nextCursor (never a pageNumber) and stops on the last page", async () => {
    const { calls } = mockFetch({
      "GET /api/tickets": (call) =>
        queryOf(call.url).cursor === "c2"
          ? jsonResponse(200, { tickets: [makeTicket({ id: 1 })], hasMore: false, nextCursor: null })
          : jsonResponse(200, { tickets: [makeTicket({ id: 3 }), makeTicket({ id: 2 })], hasMore: true, nextCursor: "c2" }),
    });
    const { result } = renderHook(() => useTicketsList({ status: "pending", showAll: true }), { wrapper });
    await waitFor(() => expect(result.current.data?.pages).toHaveLength(1));
    expect(result.current.hasNextPage).toBe(true);
    await act(() => result.current.fetchNextPage());
    await waitFor(() => expect(result.current.data?.pages).toHaveLength(2));
    expect(result.current.data?.pages.flatMap((p) => p.tickets.map((t) => t.id))).toEqual([3, 2, 1]);
    expect(result.current.hasNextPage).toBe(false);
    expect(calls.map((c) => queryOf(c.url))).toEqual([
      { status: "pending", showAll: "true" },
      { status: "pending", showAll: "true", cursor: "c2" },
    ]);
  });

  it("the conversation asks for the page before the oldest message it holds (beforeId)", async () => {
    const message = (id: number) => ({ id, ticketId: 7, body: `m${id}` }) as MessageDTO;
    const { calls } = mockFetch({
      "GET /api/messages/7": (call) =>
        queryOf(call.url).beforeId === "21"
          ? jsonResponse(200, { messages: [message(20)], hasMore: false, ticket: makeTicket({ id: 7 }) })
          : jsonResponse(200, { messages: [message(21), message(22)], hasMore: true, ticket: makeTicket({ id: 7 }) }),
    });
    const { result } = renderHook(() => useMessages(7), { wrapper });
    await waitFor(() => expect(result.current.data?.pages).toHaveLength(1));
    await act(() => result.current.fetchNextPage());
    await waitFor(() => expect(result.current.data?.pages).toHaveLength(2));
    expect(result.current.hasNextPage).toBe(false);
    expect(calls.map((c) => queryOf(c.url))).toEqual([{}, { beforeId: "21" }]);
  });
});
