/** TanStack Query keys, one factory per domain so socket handlers patch the same entries. */
export const queryKeys = {
  plans: ["plans", "list"] as const,
  settings: ["settings"] as const,
  queues: ["queues"] as const,
  users: {
    all: ["users"] as const,
    lists: () => ["users", "list"] as const,
    list: (searchParam: string) => ["users", "list", searchParam] as const,
  },
};
