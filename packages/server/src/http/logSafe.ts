/**
 * What a log line may say about an error (issue 11). A failed drizzle query's message and stack carry its
 * parameters ("Failed query: insert into users … params: …,$argon2id$…"), and PostgreSQL's `detail` quotes
 * row values ("Key (email)=(ana@…) already exists"): both are dropped. The SQL text (with $n placeholders),
 * the SQLSTATE code, the constraint and the stack frames stay, which is what diagnosing needs.
 */

/** Error properties worth logging; everything else (params, detail, where, internalQuery…) is left out. */
const KEPT = ["code", "severity", "routine", "constraint", "table", "column", "schema", "statusCode", "errno", "syscall", "name"] as const;
const MAX_CAUSE_DEPTH = 4;

export function scrubParams(text: string | undefined): string | undefined {
  // drizzle: `Failed query: <sql>\nparams: <values>` then (in a stack) the frames.
  return text?.replace(/\nparams: [\s\S]*?(?=\n\s+at |$)/, "\nparams: [redacted]");
}

export function serializeError(err: unknown, depth = 0): Record<string, unknown> {
  if (!(err instanceof Error)) {
    // Already serialized (an object a caller built), or a thrown non-error.
    return err !== null && typeof err === "object" ? (err as Record<string, unknown>) : { message: String(err) };
  }
  const source = err as Error & Record<string, unknown>;
  const out: Record<string, unknown> = { type: err.constructor?.name ?? "Error", message: scrubParams(err.message), stack: scrubParams(err.stack) };
  for (const key of KEPT) if (source[key] !== undefined && typeof source[key] !== "object") out[key] = source[key];
  if (typeof source.query === "string") out.query = source.query;
  if (source.cause !== undefined && depth < MAX_CAUSE_DEPTH) out.cause = serializeError(source.cause, depth + 1);
  return out;
}

/** The PostgreSQL error behind a (possibly drizzle-wrapped) failure, if any. */
export function postgresErrorOf(err: unknown): { code: string; message: string } | undefined {
  let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined;
  for (let i = 0; e && i < MAX_CAUSE_DEPTH; i++) {
    if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) return { code: e.code, message: String(e.message ?? "") };
    e = e.cause as typeof e;
  }
  return undefined;
}

/**
 * SQLSTATE class 22 (data exception: invalid byte sequence 22021, bad datetime 22007/22008, numeric out of
 * range 22003, invalid text representation 22P02, string too long 22001…) is raised by a value the client
 * sent that validation let through: the client's fault, so a 400, never a 500.
 */
export function isInputDataError(err: unknown): boolean {
  return postgresErrorOf(err)?.code.startsWith("22") ?? false;
}
