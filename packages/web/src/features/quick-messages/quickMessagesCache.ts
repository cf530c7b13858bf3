import type { QuickMessageDTO } from "@balcao/shared";
import type { QueryClient } from "@tanstack/react-query";
import { containsSearch, patchPagedLists } from "../../components/list/listCache";
import { quickMessageKeys } from "./queryKeys";

/** Payload of the `quickmessage` socket event (docs/api.md, Quick messages). */
export type QuickMessageEvent = { action: "create" | "update"; record: QuickMessageDTO } | { action: "delete"; id: number };

/** The server's search: shortcode and message. */
export const matchesQuickMessageSearch = (record: Pick<QuickMessageDTO, "shortcode" | "message">, search: string): boolean =>
  containsSearch(search, record.shortcode, record.message);

const lists = {
  listsKey: quickMessageKeys.lists(),
  field: "records",
  matches: matchesQuickMessageSearch,
  compare: (a: QuickMessageDTO, b: QuickMessageDTO) => a.shortcode.localeCompare(b.shortcode, "pt-BR"),
} as const;

/** Applies a create/update/delete to every cached quick-message list (each keyed by its search text). */
export const patchQuickMessagesCache = (queryClient: QueryClient, event: QuickMessageEvent) =>
  patchPagedLists(queryClient, lists, event.action === "delete" ? { remove: event.id } : { upsert: event.record });
