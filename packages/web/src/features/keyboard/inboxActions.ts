import { useEffect, useRef } from "react";

/** What the inbox's shortcuts and the command palette can do on the tickets page (issue 16). */
export const INBOX_ACTIONS = ["next", "previous", "accept", "resolve", "focusComposer", "quickReplies"] as const;
export type InboxActionName = (typeof INBOX_ACTIONS)[number];
type Handlers = Partial<Record<InboxActionName, (() => void) | false | undefined>>;

/** The mounted components' handlers, by action; the latest registration of an action wins. */
const registry = new Map<InboxActionName, { owner: object; run: () => void }[]>();

/**
 * Offers actions while the component is mounted (the list: next/previous; the open ticket's header: accept,
 * resolve; the composer: focus, quick replies). A falsy handler means "not possible now".
 */
export function useInboxActions(handlers: Handlers): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  const owner = useRef({}).current;
  const names = INBOX_ACTIONS.filter((name) => !!handlers[name]).join(",");
  useEffect(() => {
    const offered = names ? (names.split(",") as InboxActionName[]) : [];
    for (const name of offered) {
      const run = () => {
        const handler = latest.current[name];
        if (handler) handler();
      };
      registry.set(name, [...(registry.get(name) ?? []), { owner, run }]);
    }
    return () => {
      for (const name of offered)
        registry.set(
          name,
          (registry.get(name) ?? []).filter((entry) => entry.owner !== owner),
        );
    };
  }, [names, owner]);
}

/** Runs an offered action; false when nothing on screen offers it. */
export function runInboxAction(name: InboxActionName): boolean {
  const entry = registry.get(name)?.at(-1);
  if (!entry) return false;
  entry.run();
  return true;
}

/** The actions offered right now, in INBOX_ACTIONS order. */
export function availableInboxActions(): InboxActionName[] {
  return INBOX_ACTIONS.filter((name) => (registry.get(name)?.length ?? 0) > 0);
}
