import type { QuickMessageDTO, QuickMessageListResponse } from "@balcao/shared";
import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import { quickMessageKeys } from "./queryKeys";

/** Payload of the `quickmessage` socket event (docs/api.md, Quick messages). */
export type QuickMessageEvent = { action: "create" | "update"; record: QuickMessageDTO } | { action: "delete"; id: number };

type QuickMessagePages = InfiniteData<QuickMessageListResponse, number>;

const fold = (text: string) => text.normalize("NFD").replace(/\p{Diacritic}/gu, "").toLowerCase();

/** The server's search: shortcode and message. */
export function matchesQuickMessageSearch(record: Pick<QuickMessageDTO, "shortcode" | "message">, search: string): boolean {
  const needle = fold(search.trim());
  return !needle || fold(record.shortcode).includes(needle) || fold(record.message).includes(needle);
}

const byShortcode = (a: QuickMessageDTO, b: QuickMessageDTO) => a.shortcode.localeCompare(b.shortcode, "pt-BR");

export function upsertQuickMessage(data: QuickMessagePages, record: QuickMessageDTO, search: string): QuickMessagePages {
  const present = data.pages.some((page) => page.records.some((r) => r.id === record.id));
  if (present) {
    if (!matchesQuickMessageSearch(record, search)) return removeQuickMessage(data, record.id);
    return { ...data, pages: data.pages.map((page) => ({ ...page, records: page.records.map((r) => (r.id === record.id ? record : r)).sort(byShortcode) })) };
  }
  if (!matchesQuickMessageSearch(record, search) || data.pages.length === 0) return data;
  const last = data.pages[data.pages.length - 1]!;
  const lastRow = last.records[last.records.length - 1];
  if (last.hasMore && lastRow && byShortcode(record, lastRow) > 0) return data;
  const index = data.pages.findIndex((page, i) => i === data.pages.length - 1 || page.records.some((r) => byShortcode(record, r) < 0));
  return { ...data, pages: data.pages.map((page, i) => (i === index ? { ...page, records: [...page.records, record].sort(byShortcode) } : page)) };
}

export function removeQuickMessage(data: QuickMessagePages, id: number): QuickMessagePages {
  return { ...data, pages: data.pages.map((page) => ({ ...page, records: page.records.filter((r) => r.id !== id) })) };
}

/** Applies a create/update/delete to every cached quick-message list (each keyed by its search text). */
export function patchQuickMessagesCache(queryClient: QueryClient, event: QuickMessageEvent): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: quickMessageKeys.lists() })) {
    const search = String(query.queryKey[2] ?? "");
    queryClient.setQueryData<QuickMessagePages>(query.queryKey, (old) => {
      if (!old) return old;
      return event.action === "delete" ? removeQuickMessage(old, event.id) : upsertQuickMessage(old, event.record, search);
    });
  }
}
