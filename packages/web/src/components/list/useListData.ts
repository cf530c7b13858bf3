/**
 * The data side of a list page: the search box state and the list as ListPage reads it.
 *
 *   const search = useListSearch();                                  // { search, setSearch, searchParam }
 *   const query = usePagedQuery<UserListResponse>(queryKeys.users.list(search.searchParam), "/users/", search.searchParam);
 *   const list = usePagedList(query, (page) => page.users);          // ListState<UserDTO>
 *   // a list that is not paginated (GET /queue answers an array):
 *   const list = queryList(useQueues());
 *
 * The search waits 500 ms after the last keystroke (spec §9) and is sent trimmed and lower-cased; pages are
 * asked for with `searchParam` and `pageNumber` (1-based) while the previous answer says `hasMore`.
 */
import { useInfiniteQuery, type InfiniteData, type QueryKey, type UseInfiniteQueryResult, type UseQueryResult } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { api } from "../../api/client";
import { useDebouncedValue } from "../../hooks/useDebouncedValue";
import { uniqueById } from "../uniqueById";

/** What ListPage needs of a list, whatever query produced it. */
export interface ListState<T> {
  items: T[];
  /** Show the spinner below the rows. */
  loading: boolean;
  error: boolean;
  hasMore: boolean;
  loadMore: () => void;
}

/** Spec §9: list searches wait 500 ms after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 500;

export interface ListSearch {
  /** What the box shows. */
  search: string;
  setSearch: (value: string) => void;
  /** What is sent: trimmed, lower-cased, debounced. */
  searchParam: string;
}

export function useListSearch(delayMs = SEARCH_DEBOUNCE_MS, initial = ""): ListSearch {
  const [search, setSearch] = useState(initial);
  const searchParam = useDebouncedValue(search.trim().toLowerCase(), delayMs);
  return { search, setSearch, searchParam };
}

/** GET `path`?searchParam&pageNumber as an infinite query; the next page exists while an answer says hasMore. */
export function usePagedQuery<TPage extends { hasMore: boolean }>(queryKey: QueryKey, path: string, searchParam: string) {
  return useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam, signal }) => api.get<TPage>(path, { searchParam, pageNumber: pageParam }, { signal }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

/** The loaded pages as one list (first copy of an id wins: live inserts can shift rows between pages). */
export function usePagedList<TPage, T extends { id: number }>(
  query: UseInfiniteQueryResult<InfiniteData<TPage, unknown>>,
  rows: (page: TPage) => T[],
): ListState<T> {
  const { data } = query;
  // `rows` is a field accessor: only the data decides the list.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `rows` is a new arrow each render; data decides
  const items = useMemo(() => uniqueById((data?.pages ?? []).map(rows)), [data]);
  return {
    items,
    loading: query.isFetching,
    error: query.isError,
    hasMore: !!query.hasNextPage,
    loadMore: () => void query.fetchNextPage(),
  };
}

/** A list that arrives whole (a plain query answering an array). */
export function queryList<T>(query: UseQueryResult<T[]>): ListState<T> {
  return { items: query.data ?? [], loading: query.isPending, error: query.isError, hasMore: false, loadMore: () => {} };
}
