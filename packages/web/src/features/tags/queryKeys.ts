/** TanStack Query keys of the tags page (kept beside the feature; see api/queryKeys.ts for the pattern). */
export const tagKeys = {
  all: ["tags"] as const,
  lists: () => ["tags", "list"] as const,
  list: (searchParam: string) => ["tags", "list", searchParam] as const,
};
