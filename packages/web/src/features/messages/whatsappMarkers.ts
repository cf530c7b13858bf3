/**
 * WhatsApp's formatting markers without React or MUI (whatsappFormat.tsx renders them): the one-line previews of
 * the ticket list and the bell, on every page, strip them with this module alone (issue 20).
 */

/** A marker pair: opening not preceded by a letter/digit and followed by non-space; closing the mirror; same line. */
export const FORMAT_RE = /(?<![\p{L}\p{N}])(```|[*_~])(?!\s)([^\n]*?[^\s])\1(?![\p{L}\p{N}])/u;

const FORMAT_RE_GLOBAL = new RegExp(FORMAT_RE.source, "gu");

/**
 * The plain text of a formatted body, for one-line previews (ticket list, bell, Kanban cards; issue 16):
 * "*Demo Admin:* _oi_" → "Demo Admin: oi". Only the markers the bubbles would render are removed.
 */
export function stripWhatsApp(text: string): string {
  let out = text;
  // Nested markers (*_both_*) come off one layer per pass; a body has few layers.
  for (let pass = 0; pass < 5; pass++) {
    const next = out.replace(FORMAT_RE_GLOBAL, (_whole, _marker: string, inner: string) => inner);
    if (next === out) break;
    out = next;
  }
  return out;
}
