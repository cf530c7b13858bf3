/** TanStack Query keys of the contacts domain (kept beside the feature; see api/queryKeys.ts for the pattern). */
export const contactKeys = {
  all: ["contacts"] as const,
  lists: () => ["contacts", "list"] as const,
  list: (searchParam: string) => ["contacts", "list", searchParam] as const,
  details: () => ["contacts", "detail"] as const,
  detail: (id: number) => ["contacts", "detail", id] as const,
};
