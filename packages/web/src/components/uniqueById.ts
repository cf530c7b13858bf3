/** Flattens loaded pages into one list, keeping the first copy of an id (live inserts can shift pages). */
export function uniqueById<T extends { id: number }>(pages: readonly (readonly T[])[]): T[] {
  const seen = new Set<number>();
  return pages.flat().filter((item) => !seen.has(item.id) && !!seen.add(item.id));
}
