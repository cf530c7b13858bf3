/**
 * Runs `task` once the browser is idle (at the latest after `timeoutMs`), e.g. to fetch a chunk the page may need
 * soon without delaying what it shows first (issue 20). Returns the cancel function, for a useEffect.
 */
export function whenIdle(task: () => void, timeoutMs = 2000): () => void {
  if (typeof requestIdleCallback === "function") {
    const id = requestIdleCallback(task, { timeout: timeoutMs });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(task, 200);
  return () => clearTimeout(id);
}
