declare module "../../events/bus" {
  interface DomainEvents {
    // No socket sees them: they tell every process's read cache (cache/readCache.ts) that the company's webhooks changed.
    "webhooks.created": { id: number };
    "webhooks.updated": { id: number };
    "webhooks.deleted": { id: number };
  }
}

export {};
