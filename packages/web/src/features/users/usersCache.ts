import type { UserDTO, UserListResponse } from "@balcao/shared";
import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import { queryKeys } from "../../api/queryKeys";

/** Payload of the `user` socket event (docs/api.md). */
export type UserEvent = { action: "create" | "update"; user: UserDTO } | { action: "delete"; userId: number };

type UserPages = InfiniteData<UserListResponse, number>;

const fold = (text: string) => text.normalize("NFD").replace(/\p{Diacritic}/gu, "").toLowerCase();

export function matchesSearch(user: Pick<UserDTO, "name" | "email">, search: string): boolean {
  const needle = fold(search.trim());
  return !needle || fold(user.name).includes(needle) || fold(user.email).includes(needle);
}

/** Replaces the user where it is listed; otherwise adds it to the first page (sorted by name) when it matches. */
export function upsertUser(data: UserPages, user: UserDTO, search: string): UserPages {
  const present = data.pages.some((page) => page.users.some((u) => u.id === user.id));
  if (present) {
    return { ...data, pages: data.pages.map((page) => ({ ...page, users: page.users.map((u) => (u.id === user.id ? user : u)) })) };
  }
  if (!matchesSearch(user, search) || data.pages.length === 0) return data;
  const [first, ...rest] = data.pages;
  const users = [...first.users, user].sort((a, b) => a.name.localeCompare(b.name, "pt-BR"));
  return { ...data, pages: [{ ...first, users }, ...rest] };
}

export function removeUser(data: UserPages, userId: number): UserPages {
  return { ...data, pages: data.pages.map((page) => ({ ...page, users: page.users.filter((u) => u.id !== userId) })) };
}

/** Applies a create/update/delete to every cached users list (each keyed by its search text). */
export function patchUsersCache(queryClient: QueryClient, event: UserEvent): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: queryKeys.users.lists() })) {
    const search = String(query.queryKey[2] ?? "");
    queryClient.setQueryData<UserPages>(query.queryKey, (old) => {
      if (!old) return old;
      return event.action === "delete" ? removeUser(old, event.userId) : upsertUser(old, event.user, search);
    });
  }
}
