/**
 * The route pages are lazy chunks (app/router.tsx, issue 20). A suite that renders `routes` loads the modules
 * of the pages it shows once, in a beforeAll, so the first findBy does not wait for their transform.
 */
export async function preloadPages(...loaders: (() => Promise<unknown>)[]): Promise<void> {
  await Promise.all([import("../app/layout/AppLayout"), import("../features/tickets/TicketsPage"), ...loaders.map((load) => load())]);
}

/** The time a beforeAll gets to load the pages on a loaded 2-core machine. */
export const PRELOAD_TIMEOUT_MS = 120_000;
