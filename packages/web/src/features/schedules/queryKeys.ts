/** TanStack Query keys of the schedules domain. */
export const scheduleKeys = {
  all: ["schedules"] as const,
  lists: () => ["schedules", "list"] as const,
  list: (searchParam: string) => ["schedules", "list", searchParam] as const,
  detail: (id: number) => ["schedules", "detail", id] as const,
};
