import type { TagDTO, TagListResponse } from "@balcao/shared";
import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import { tagKeys } from "./queryKeys";

/** Payload of the `tag` socket event (docs/api.md, Tags). */
export type TagEvent = { action: "create" | "update"; tag: TagDTO } | { action: "delete"; tagId: number };

type TagPages = InfiniteData<TagListResponse, number>;

const fold = (text: string) => text.normalize("NFD").replace(/\p{Diacritic}/gu, "").toLowerCase();

export function matchesTagSearch(tag: Pick<TagDTO, "name">, search: string): boolean {
  const needle = fold(search.trim());
  return !needle || fold(tag.name).includes(needle);
}

const byName = (a: TagDTO, b: TagDTO) => a.name.localeCompare(b.name, "pt-BR");

/** Replaces the tag where listed (an event without ticketsCount keeps the known count); otherwise adds it by name. */
export function upsertTag(data: TagPages, tag: TagDTO, search: string): TagPages {
  const present = data.pages.some((page) => page.tags.some((t) => t.id === tag.id));
  if (present) {
    if (!matchesTagSearch(tag, search)) return removeTag(data, tag.id);
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        tags: page.tags.map((t) => (t.id === tag.id ? { ...tag, ticketsCount: tag.ticketsCount ?? t.ticketsCount } : t)).sort(byName),
      })),
    };
  }
  if (!matchesTagSearch(tag, search) || data.pages.length === 0) return data;
  const last = data.pages[data.pages.length - 1]!;
  const lastRow = last.tags[last.tags.length - 1];
  if (last.hasMore && lastRow && byName(tag, lastRow) > 0) return data;
  const index = data.pages.findIndex((page, i) => i === data.pages.length - 1 || page.tags.some((t) => byName(tag, t) < 0));
  const added = { ...tag, ticketsCount: tag.ticketsCount ?? 0 };
  return { ...data, pages: data.pages.map((page, i) => (i === index ? { ...page, tags: [...page.tags, added].sort(byName) } : page)) };
}

export function removeTag(data: TagPages, tagId: number): TagPages {
  return { ...data, pages: data.pages.map((page) => ({ ...page, tags: page.tags.filter((t) => t.id !== tagId) })) };
}

/** Applies a create/update/delete to every cached tags list (each keyed by its search text). */
export function patchTagsCache(queryClient: QueryClient, event: TagEvent): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: tagKeys.lists() })) {
    const search = String(query.queryKey[2] ?? "");
    queryClient.setQueryData<TagPages>(query.queryKey, (old) => {
      if (!old) return old;
      return event.action === "delete" ? removeTag(old, event.tagId) : upsertTag(old, event.tag, search);
    });
  }
}
