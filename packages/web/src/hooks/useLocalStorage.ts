import { useCallback, useMemo, useSyncExternalStore } from "react";

/** Browser-only preferences (DESIGN §4.9): volume, signOption, theme, cshow, to-do tasks. */
const CHANGE_EVENT = "balcao:local-storage";

function subscribe(onChange: () => void): () => void {
  window.addEventListener("storage", onChange);
  window.addEventListener(CHANGE_EVENT, onChange);
  return () => {
    window.removeEventListener("storage", onChange);
    window.removeEventListener(CHANGE_EVENT, onChange);
  };
}

function parse<T>(raw: string | null, fallback: T): T {
  if (raw === null) return fallback;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return fallback;
  }
}

export function writeLocalStorage(key: string, value: unknown): void {
  if (value === undefined) localStorage.removeItem(key);
  else localStorage.setItem(key, JSON.stringify(value));
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

export function readLocalStorage<T>(key: string, fallback: T): T {
  return parse(localStorage.getItem(key), fallback);
}

/** Whether a key exists at all (the spec's `cshow` flag is checked this way). */
export function useLocalStorageFlag(key: string): boolean {
  return useSyncExternalStore(subscribe, () => localStorage.getItem(key) !== null);
}

/** useState backed by localStorage, shared by every component using the same key. */
export function useLocalStorage<T>(key: string, initialValue: T): [T, (value: T | ((prev: T) => T)) => void] {
  const raw = useSyncExternalStore(subscribe, () => localStorage.getItem(key));
  const value = useMemo(() => parse(raw, initialValue), [raw]); // eslint-disable-line react-hooks/exhaustive-deps
  const setValue = useCallback(
    (next: T | ((prev: T) => T)) => {
      const prev = readLocalStorage(key, initialValue);
      writeLocalStorage(key, typeof next === "function" ? (next as (p: T) => T)(prev) : next);
    },
    [key], // eslint-disable-line react-hooks/exhaustive-deps
  );
  return [value, setValue];
}
