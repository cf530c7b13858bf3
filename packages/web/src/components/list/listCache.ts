/**
 * Live patching of cached lists from socket events (and from mutation answers), so a page never refetches
 * to show a create / update / delete.
 *
 *   // paginated lists (useInfiniteQuery), one cache entry per search text under `listsKey`:
 *   patchPagedLists(queryClient, { listsKey: tagKeys.lists(), field: "tags", matches: matchesTagSearch, compare: byName },
 *     event.action === "delete" ? { remove: event.tagId } : { upsert: event.tag });
 *   // plain arrays (useQuery):
 *   queryClient.setQueryData<QueueDTO[]>(key, (old) => old && upsertSorted(old, queue, compareQueues));
 *
 * An upsert replaces the row where it is (merging: a field the event lacks keeps its value), drops it from a
 * search it no longer matches, or inserts it in order among the loaded pages (a row that sorts past the last
 * loaded one arrives with its page). Lists that were never loaded are left alone.
 */
import type { InfiniteData, QueryClient, QueryKey } from "@tanstack/react-query";

export interface Identified {
  id: number;
}

export type ListChange<T> = { upsert: T } | { remove: number };

/** A page of a paginated list answer: `{ [field]: rows, hasMore }` (e.g. UserListResponse). */
export type PageOf<K extends string, T> = { hasMore: boolean } & { [P in K]: T[] };

export interface PagedListsOptions<K extends string, T> {
  /** Key prefix of the domain's list queries; the next key part is the (debounced) search text. */
  listsKey: QueryKey;
  /** The page's field holding the rows, e.g. "users". */
  field: K;
  /** The server's search, so a live row only shows in the lists it belongs to. */
  matches: (row: T, search: string) => boolean;
  /** The server's order. */
  compare: (a: T, b: T) => number;
}

/** Case- and accent-insensitive text, as the server's ILIKE over unaccented columns compares. */
export const foldText = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase();

/** Whether any of `texts` contains the search (blank search matches everything). */
export function containsSearch(search: string, ...texts: (string | null | undefined)[]): boolean {
  const needle = foldText(search.trim());
  return !needle || texts.some((text) => !!text && foldText(text).includes(needle));
}

/** The row after an update: what the event carries wins, a field it lacks (undefined) keeps the known value. */
export function mergeRow<T extends object>(current: T, next: T): T {
  return { ...current, ...Object.fromEntries(Object.entries(next).filter(([, value]) => value !== undefined)) };
}

const withRows = <K extends string, T>(page: PageOf<K, T>, field: K, rows: T[]): PageOf<K, T> => Object.assign({}, page, { [field]: rows });

export function removeFromPages<K extends string, T extends Identified>(
  data: InfiniteData<PageOf<K, T>>,
  field: K,
  id: number,
): InfiniteData<PageOf<K, T>> {
  return {
    ...data,
    pages: data.pages.map((page) =>
      withRows(
        page,
        field,
        page[field].filter((row) => row.id !== id),
      ),
    ),
  };
}

export function upsertIntoPages<K extends string, T extends Identified>(
  data: InfiniteData<PageOf<K, T>>,
  row: T,
  search: string,
  { field, matches, compare }: Omit<PagedListsOptions<K, T>, "listsKey">,
): InfiniteData<PageOf<K, T>> {
  const { pages } = data;
  if (pages.some((page) => page[field].some((r) => r.id === row.id))) {
    if (!matches(row, search)) return removeFromPages(data, field, row.id);
    return {
      ...data,
      pages: pages.map((page) => withRows(page, field, page[field].map((r) => (r.id === row.id ? mergeRow(r, row) : r)).sort(compare))),
    };
  }
  if (!matches(row, search) || pages.length === 0) return data;
  const last = pages[pages.length - 1]!;
  const lastRow = last[field][last[field].length - 1];
  if (last.hasMore && lastRow && compare(row, lastRow) > 0) return data;
  const index = pages.findIndex((page, i) => i === pages.length - 1 || page[field].some((r) => compare(row, r) < 0));
  return { ...data, pages: pages.map((page, i) => (i === index ? withRows(page, field, [...page[field], row].sort(compare)) : page)) };
}

/** Applies a change to every cached list of the domain (each keyed by its search text). */
export function patchPagedLists<K extends string, T extends Identified>(
  queryClient: QueryClient,
  options: PagedListsOptions<K, T>,
  change: ListChange<T>,
): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: options.listsKey })) {
    const search = String(query.queryKey[options.listsKey.length] ?? "");
    queryClient.setQueryData<InfiniteData<PageOf<K, T>>>(query.queryKey, (old) => {
      if (!old) return old;
      return "remove" in change ? removeFromPages(old, options.field, change.remove) : upsertIntoPages(old, change.upsert, search, options);
    });
  }
}

/** Replaces (merging) or adds a row of a plain list, keeping the server's order. */
export function upsertSorted<T extends Identified>(list: readonly T[], row: T, compare: (a: T, b: T) => number): T[] {
  const present = list.some((r) => r.id === row.id);
  return (present ? list.map((r) => (r.id === row.id ? mergeRow(r, row) : r)) : [...list, row]).sort(compare);
}

export const removeById = <T extends Identified>(list: readonly T[], id: number): T[] => list.filter((r) => r.id !== id);
