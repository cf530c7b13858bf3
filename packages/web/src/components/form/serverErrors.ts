import { errorCodeOf } from "@balcao/shared";
import type { FieldPath, FieldValues, UseFormReturn } from "react-hook-form";
import { ApiError } from "../../api/client";
import { errorText, translateValidation } from "../toastError";

/** Server error codes (the catalogue's name or the answer's `error` text) mapped to the field their text belongs under. */
export type CodeFields<I extends FieldValues> = Partial<Record<string, FieldPath<I>>>;

/** The field a code names, whether the answer carries the code or the spec's wire text (ERR_QUEUE_REQUIRED ↔ "Selecione uma fila"). */
function fieldOfCode<F>(fields: Partial<Record<string, F>>, err: ApiError): F | undefined {
  return fields[err.code] ?? fields[errorCodeOf(err.code) ?? ""];
}

/** Whether `path` names something the form holds (a field, an array row, a nested value). */
function isFieldPath<I extends FieldValues>(values: I, path: string): path is FieldPath<I> {
  if (!path) return false;
  let node: unknown = values;
  for (const part of path.split(".")) {
    if (node === null || typeof node !== "object" || !(part in node)) return false;
    node = Reflect.get(node, part);
  }
  return true;
}

/** The deepest prefix of a server issue path the form holds: "queueIds.3" → "queueIds", "extraInfo.0.name" stays. */
export function formFieldOf<I extends FieldValues>(values: I, path: string): FieldPath<I> | undefined {
  const parts = path.split(".");
  for (let n = parts.length; n > 0; n--) {
    const candidate = parts.slice(0, n).join(".");
    if (isFieldPath(values, candidate)) return candidate;
  }
  return undefined;
}

/**
 * Marks the fields a failed save is about: each `issues[].path` of a 400 answer (docs/api.md error body
 * `{ error, issues?, meta? }`) and, for the codes in `codeFields`, the code's translated text under its
 * field (focused). Returns whether any field was marked; the caller still toasts the error.
 */
export function applyServerErrors<I extends FieldValues>(
  form: Pick<UseFormReturn<I, unknown, unknown>, "getValues" | "setError">,
  err: unknown,
  codeFields: CodeFields<I> = {},
): boolean {
  if (!(err instanceof ApiError)) return false;
  let marked = false;
  const values = form.getValues();
  for (const issue of err.body.issues ?? []) {
    const field = formFieldOf(values, String(issue.path ?? ""));
    if (!field) continue;
    form.setError(field, { type: "server", message: issue.message }, { shouldFocus: !marked });
    marked = true;
  }
  const field = fieldOfCode(codeFields, err);
  if (field) {
    form.setError(field, { type: "server", message: errorText(err) }, { shouldFocus: !marked });
    marked = true;
  }
  return marked;
}

/**
 * For a form kept in component state (no react-hook-form): which of its fields a failed save is about, with
 * the text to show there. `fields` maps error codes and body paths to the form's field names, e.g.
 * `{ ERR_QUEUE_REQUIRED: "queue", queueId: "queue" }`; the caller still toasts the error.
 */
export function serverFieldError<F extends string>(err: unknown, fields: Partial<Record<string, F>>): { field: F; message: string } | undefined {
  if (!(err instanceof ApiError)) return undefined;
  const byCode = fieldOfCode(fields, err);
  if (byCode) return { field: byCode, message: errorText(err) };
  for (const issue of err.body.issues ?? []) {
    const field = fields[String(issue.path ?? "").split(".")[0] ?? ""];
    if (field) return { field, message: translateValidation(issue.message) ?? errorText(err) };
  }
  return undefined;
}
