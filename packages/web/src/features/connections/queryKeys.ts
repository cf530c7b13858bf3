/** Query keys of the connections feature. */
export const connectionKeys = {
  all: ["connections"] as const,
  list: () => ["connections", "list"] as const,
  simulatorLink: (connectionId: number) => ["connections", "simulator-link", connectionId] as const,
  health: (connectionId: number) => ["connections", "health", connectionId] as const,
};
