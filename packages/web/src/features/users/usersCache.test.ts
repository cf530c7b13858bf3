import type { UserListResponse } from "@balcao/shared";
import { QueryClient, type InfiniteData } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { queryKeys } from "../../api/queryKeys";
import { makeUser } from "../../test/utils";
import { patchUsersCache } from "./usersCache";

const pages = (...lists: string[][]): InfiniteData<UserListResponse, number> => ({
  pageParams: lists.map((_, i) => i + 1),
  pages: lists.map((names, i) => ({
    users: names.map((name) => makeUser({ id: name.charCodeAt(0), name, email: `${name.toLowerCase()}@x.test` })),
    hasMore: i < lists.length - 1,
  })),
});

const names = (data?: InfiniteData<UserListResponse, number>) => data?.pages.map((p) => p.users.map((u) => u.name));

describe("patchUsersCache (socket `user` event)", () => {
  it("adds a created user to lists it matches, in name order, and updates and deletes in place", () => {
    const client = new QueryClient();
    client.setQueryData(queryKeys.users.list(""), pages(["Ana", "Caio"]));
    client.setQueryData(queryKeys.users.list("caio"), pages(["Caio"]));

    patchUsersCache(client, { action: "create", user: makeUser({ id: 50, name: "Bia", email: "bia@x.test" }) });
    expect(names(client.getQueryData(queryKeys.users.list("")))).toEqual([["Ana", "Bia", "Caio"]]);
    expect(names(client.getQueryData(queryKeys.users.list("caio")))).toEqual([["Caio"]]);

    patchUsersCache(client, { action: "update", user: makeUser({ id: 50, name: "Beatriz", email: "bia@x.test" }) });
    expect(names(client.getQueryData(queryKeys.users.list("")))).toEqual([["Ana", "Beatriz", "Caio"]]);

    patchUsersCache(client, { action: "delete", userId: "C".charCodeAt(0) });
    expect(names(client.getQueryData(queryKeys.users.list("")))).toEqual([["Ana", "Beatriz"]]);
    expect(names(client.getQueryData(queryKeys.users.list("caio")))).toEqual([[]]);
  });
});
