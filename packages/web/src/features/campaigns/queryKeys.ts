/** TanStack Query keys of the campaigns domain. */
export const campaignKeys = {
  all: ["campaigns"] as const,
  lists: () => ["campaigns", "list"] as const,
  list: (searchParam: string) => ["campaigns", "list", searchParam] as const,
  detail: (id: number) => ["campaigns", "detail", id] as const,
  /** The report's shipping rows of one campaign (every search and filter under it). */
  shipping: (id: number) => ["campaigns", "shipping", id] as const,
  shippingList: (id: number, searchParam: string, status: string) => ["campaigns", "shipping", id, searchParam, status] as const,
  settings: ["campaigns", "settings"] as const,
  contactListOptions: ["campaigns", "contactListOptions"] as const,
};
