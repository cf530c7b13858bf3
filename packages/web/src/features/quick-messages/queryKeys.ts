/** TanStack Query keys of the quick messages page (kept beside the feature; see api/queryKeys.ts for the pattern). */
export const quickMessageKeys = {
  all: ["quick-messages"] as const,
  lists: () => ["quick-messages", "list"] as const,
  list: (searchParam: string) => ["quick-messages", "list", searchParam] as const,
};
