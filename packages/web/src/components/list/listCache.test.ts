import { QueryClient, type InfiniteData } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { containsSearch, mergeRow, patchPagedLists, removeById, upsertSorted, type PageOf } from "./listCache";

interface Row {
  id: number;
  name: string;
  count?: number;
}
type Pages = InfiniteData<PageOf<"rows", Row>, number>;

const row = (id: number, name: string, count?: number): Row => ({ id, name, ...(count === undefined ? {} : { count }) });
const pages = (...lists: { rows: Row[]; hasMore: boolean }[]): Pages => ({ pageParams: lists.map((_, i) => i + 1), pages: lists });
const names = (data?: Pages) => data?.pages.map((p) => p.rows.map((r) => r.name));
const options = {
  listsKey: ["things", "list"],
  field: "rows" as const,
  matches: (r: Row, search: string) => containsSearch(search, r.name),
  compare: (a: Row, b: Row) => a.name.localeCompare(b.name, "pt-BR"),
};

describe("patchPagedLists", () => {
  it("inserts in order into the lists whose search matches, and only those", () => {
    const client = new QueryClient();
    client.setQueryData(["things", "list", ""], pages({ rows: [row(1, "Ana"), row(3, "Caio")], hasMore: false }));
    client.setQueryData(["things", "list", "cai"], pages({ rows: [row(3, "Caio")], hasMore: false }));
    client.setQueryData(["other", "list", ""], pages({ rows: [], hasMore: false }));
    patchPagedLists(client, options, { upsert: row(2, "Bia") });
    expect(names(client.getQueryData(["things", "list", ""]))).toEqual([["Ana", "Bia", "Caio"]]);
    expect(names(client.getQueryData(["things", "list", "cai"]))).toEqual([["Caio"]]);
    expect(names(client.getQueryData(["other", "list", ""]))).toEqual([[]]);
  });

  it("leaves a row that sorts past the loaded pages to its own page; fills the right page otherwise", () => {
    const client = new QueryClient();
    client.setQueryData(["things", "list", ""], pages({ rows: [row(1, "Ana")], hasMore: true }, { rows: [row(2, "Bia")], hasMore: true }));
    patchPagedLists(client, options, { upsert: row(9, "Zé") });
    patchPagedLists(client, options, { upsert: row(8, "Amanda") });
    patchPagedLists(client, options, { upsert: row(7, "Beto") });
    expect(names(client.getQueryData(["things", "list", ""]))).toEqual([
      ["Amanda", "Ana"],
      ["Beto", "Bia"],
    ]);
  });

  it("updates in place keeping what the event lacks, re-sorts, and drops a row that left the search", () => {
    const client = new QueryClient();
    client.setQueryData(["things", "list", ""], pages({ rows: [row(1, "Ana", 4), row(2, "Bia", 7)], hasMore: false }));
    client.setQueryData(["things", "list", "bi"], pages({ rows: [row(2, "Bia", 7)], hasMore: false }));
    patchPagedLists(client, options, { upsert: { id: 2, name: "Aba", count: undefined } });
    const all = client.getQueryData<Pages>(["things", "list", ""]);
    expect(all?.pages[0]!.rows).toEqual([row(2, "Aba", 7), row(1, "Ana", 4)]);
    expect(names(client.getQueryData(["things", "list", "bi"]))).toEqual([[]]);
  });

  it("removes from every list and ignores lists never loaded", () => {
    const client = new QueryClient();
    client.setQueryData(["things", "list", ""], pages({ rows: [row(1, "Ana")], hasMore: true }, { rows: [row(2, "Bia")], hasMore: false }));
    patchPagedLists(client, options, { remove: 2 });
    expect(names(client.getQueryData(["things", "list", ""]))).toEqual([["Ana"], []]);
    client.getQueryCache().build(client, { queryKey: ["things", "list", "x"] });
    expect(() => patchPagedLists(client, options, { upsert: row(5, "X") })).not.toThrow();
    expect(client.getQueryData(["things", "list", "x"])).toBeUndefined();
  });
});

describe("plain list helpers", () => {
  it("upsertSorted replaces (merging) or adds in order; removeById drops", () => {
    const byName = (a: Row, b: Row) => a.name.localeCompare(b.name);
    const list = upsertSorted([row(2, "Bravo", 1)], row(1, "Alfa"), byName);
    expect(list.map((r) => r.name)).toEqual(["Alfa", "Bravo"]);
    expect(upsertSorted(list, { id: 2, name: "Aaron" }, byName)).toEqual([row(2, "Aaron", 1), row(1, "Alfa")]);
    expect(removeById(list, 1)).toEqual([row(2, "Bravo", 1)]);
  });

  it("containsSearch ignores case and accents; mergeRow keeps undefined fields", () => {
    expect(containsSearch("JOAO", "João Müller")).toBe(true);
    expect(containsSearch("muller", null, "João Müller")).toBe(true);
    expect(containsSearch("  ", "x")).toBe(true);
    expect(containsSearch("maria", "João", undefined)).toBe(false);
    expect(mergeRow({ id: 1, name: "a", count: 3 }, { id: 1, name: "b", count: undefined })).toEqual({ id: 1, name: "b", count: 3 });
  });
});
