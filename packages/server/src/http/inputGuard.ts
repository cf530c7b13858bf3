import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "./errors";

/**
 * C0 control characters other than tab, line feed and carriage return, and DEL. NUL cannot be stored in a
 * PostgreSQL text column at all (the query fails with 22021, which used to surface as a 500), and the others
 * have no business in names, messages or searches: they hide text and confuse terminals and logs.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point of this guard
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
/** Deeper JSON than this is not something the API accepts anywhere; refuse it rather than walk it. */
const MAX_DEPTH = 32;

/** The path ("body.contact.name", "query.searchParam") of the first string or key with a control character. */
export function findControlCharacter(value: unknown, root: string): string | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: root, depth: 0 }];
  while (stack.length) {
    const item = stack.pop()!;
    if (typeof item.value === "string") {
      if (CONTROL_CHARACTER.test(item.value)) return item.path;
      continue;
    }
    if (item.value === null || typeof item.value !== "object") continue;
    if (item.depth >= MAX_DEPTH) return item.path;
    if (Buffer.isBuffer(item.value)) continue;
    for (const [key, child] of Object.entries(item.value)) {
      const path = `${item.path}.${key}`;
      if (CONTROL_CHARACTER.test(key)) return path;
      stack.push({ value: child, path, depth: item.depth + 1 });
    }
  }
  return null;
}

/** Throws 400 ERR_INVALID_CHARACTERS naming the field; for text read outside the schema (multipart fields). */
export function assertCleanText(value: unknown, field: string): void {
  const path = findControlCharacter(value, field);
  if (path) throw new AppError("ERR_INVALID_CHARACTERS", 400, { field: path });
}

/**
 * Every route, before its schema runs: the parsed body, the query and the path parameters must be free of
 * control characters (issue 11). One hook instead of a rule per field, so a new route cannot forget it.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook("preValidation", async (request: FastifyRequest) => {
    assertCleanText(request.params, "params");
    assertCleanText(request.query, "query");
    assertCleanText(request.body, "body");
  });
}
