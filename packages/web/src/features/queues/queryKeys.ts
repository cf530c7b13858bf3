/** Query keys of the queue feature beyond the shared `queryKeys.queues` list. */
export const queueKeys = {
  options: (queueId: number) => ["queue-options", queueId] as const,
};
