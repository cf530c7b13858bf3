import type { TagDTO } from "@balcao/shared";
import type { QueryClient } from "@tanstack/react-query";
import { containsSearch, patchPagedLists } from "../../components/list/listCache";
import { tagKeys } from "./queryKeys";

/** Payload of the `tag` socket event (docs/api.md, Tags). An event may lack ticketsCount: the known count stays. */
export type TagEvent = { action: "create" | "update"; tag: TagDTO } | { action: "delete"; tagId: number };

export const matchesTagSearch = (tag: Pick<TagDTO, "name">, search: string): boolean => containsSearch(search, tag.name);

const lists = {
  listsKey: tagKeys.lists(),
  field: "tags",
  matches: matchesTagSearch,
  compare: (a: TagDTO, b: TagDTO) => a.name.localeCompare(b.name, "pt-BR"),
} as const;

/** Applies a create/update/delete to every cached tags list (each keyed by its search text). */
export const patchTagsCache = (queryClient: QueryClient, event: TagEvent) =>
  patchPagedLists(queryClient, lists, event.action === "delete" ? { remove: event.tagId } : { upsert: event.tag });
