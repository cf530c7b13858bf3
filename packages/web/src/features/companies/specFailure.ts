import { errorCodeOf } from "@balcao/shared";
import { ApiError } from "../../api/client";

/**
 * Spec §8's failure texts for the super user's screens ('Não foi possível realizar a operação…') apply when
 * the server gave no specific reason: a failure with a catalogue code (duplicated name, plan in use…) or
 * with field issues is kept, so its own text and field marks show; anything else (network, 5xx) becomes
 * an Error carrying the spec's text, which the toast then shows.
 */
export async function withSpecFailure<T>(work: () => Promise<T>, specText: string): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ApiError && (errorCodeOf(err.code) || err.body.issues?.length)) throw err;
    throw new Error(specText, { cause: err });
  }
}
