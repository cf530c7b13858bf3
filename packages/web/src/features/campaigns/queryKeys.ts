/** TanStack Query keys of the campaigns domain. */
export const campaignKeys = {
  all: ["campaigns"] as const,
  lists: () => ["campaigns", "list"] as const,
  list: (searchParam: string) => ["campaigns", "list", searchParam] as const,
  detail: (id: number) => ["campaigns", "detail", id] as const,
  settings: ["campaigns", "settings"] as const,
  contactListOptions: ["campaigns", "contactListOptions"] as const,
};
