/** TanStack Query keys of the contact lists pages. */
export const contactListKeys = {
  all: ["contactLists"] as const,
  lists: () => ["contactLists", "list"] as const,
  list: (searchParam: string) => ["contactLists", "list", searchParam] as const,
  detail: (id: number) => ["contactLists", "detail", id] as const,
  import: (contactListId: number, importId: number) => ["contactLists", "import", contactListId, importId] as const,
  /** Prefix of one list's item queries; the next key part is the search text. */
  items: (contactListId: number) => ["contactListItems", contactListId] as const,
  itemsList: (contactListId: number, searchParam: string) => ["contactListItems", contactListId, searchParam] as const,
};
