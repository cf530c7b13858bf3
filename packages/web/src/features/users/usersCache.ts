import type { UserDTO } from "@balcao/shared";
import type { QueryClient } from "@tanstack/react-query";
import { queryKeys } from "../../api/queryKeys";
import { containsSearch, patchPagedLists } from "../../components/list/listCache";

/** Payload of the `user` socket event (docs/api.md). */
export type UserEvent = { action: "create" | "update"; user: UserDTO } | { action: "delete"; userId: number };

/** The server's search: name and email. */
export const matchesSearch = (user: Pick<UserDTO, "name" | "email">, search: string): boolean => containsSearch(search, user.name, user.email);

const lists = {
  listsKey: queryKeys.users.lists(),
  field: "users",
  matches: matchesSearch,
  compare: (a: UserDTO, b: UserDTO) => a.name.localeCompare(b.name, "pt-BR"),
} as const;

/** Applies a create/update/delete to every cached users list (each keyed by its search text). */
export const patchUsersCache = (queryClient: QueryClient, event: UserEvent) =>
  patchPagedLists(queryClient, lists, event.action === "delete" ? { remove: event.userId } : { upsert: event.user });
