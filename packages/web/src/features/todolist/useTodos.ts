import { useCallback } from "react";
import { useLocalStorage } from "../../hooks/useLocalStorage";

/** A to-do task (spec §2): text, created, updated. Kept only in this browser. */
export interface TodoTask {
  id: string;
  text: string;
  /** ISO instants. */
  createdAt: string;
  updatedAt: string;
}

/** One list per user and company on a shared computer (two attendants, one browser). */
export const todoStorageKey = (companyId: number, userId: number) => `todolist:${companyId}:${userId}`;

/** Blank or whitespace-only text is not a task (spec §5). */
export const isBlankTask = (text: string) => text.trim().length === 0;

const isTask = (t: unknown): t is TodoTask =>
  !!t &&
  typeof t === "object" &&
  typeof (t as TodoTask).id === "string" &&
  typeof (t as TodoTask).text === "string" &&
  typeof (t as TodoTask).createdAt === "string";

export function useTodos(companyId: number, userId: number) {
  const [stored, setStored] = useLocalStorage<unknown>(todoStorageKey(companyId, userId), []);
  // Whatever another tab or an older version left there, only well-formed tasks are shown.
  const tasks = Array.isArray(stored) ? stored.filter(isTask) : [];
  const update = useCallback(
    (change: (tasks: TodoTask[]) => TodoTask[]) => setStored((prev: unknown) => change(Array.isArray(prev) ? prev.filter(isTask) : [])),
    [setStored],
  );

  const add = useCallback(
    (text: string): boolean => {
      if (isBlankTask(text)) return false;
      const now = new Date().toISOString();
      update((list) => [...list, { id: crypto.randomUUID(), text: text.trim(), createdAt: now, updatedAt: now }]);
      return true;
    },
    [update],
  );
  const edit = useCallback(
    (id: string, text: string): boolean => {
      if (isBlankTask(text)) return false;
      update((list) => list.map((t) => (t.id === id ? { ...t, text: text.trim(), updatedAt: new Date().toISOString() } : t)));
      return true;
    },
    [update],
  );
  const remove = useCallback((id: string) => update((list) => list.filter((t) => t.id !== id)), [update]);

  return { tasks, add, edit, remove };
}
