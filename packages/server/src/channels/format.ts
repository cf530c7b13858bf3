/** Provider-neutral text formats of spec §2 that every provider produces the same way. */

/** Location body: "<picture>|<maps link>|<description>" (the web app splits it on the pipe). */
export function locationBody(latitude: number, longitude: number, description = "", picture = ""): string {
  const link = `https://maps.google.com/maps?q=${latitude}%2C${longitude}&z=17&hl=pt-BR`;
  return `${picture}|${link}|${description.replace(/\|/g, " ")}`;
}

/** A vCard 3.0 with the `waid` parameter WhatsApp uses to link the number. */
export function buildVcard(name: string, digits: string): string {
  const clean = name.replace(/[\r\n]/g, " ");
  return ["BEGIN:VCARD", "VERSION:3.0", `FN:${clean}`, `N:;${clean};;;`, `TEL;type=CELL;waid=${digits}:+${digits}`, "END:VCARD"].join("\n");
}

/** Exponential backoff with full jitter: a random delay in [base·2^(attempt-1)/2, base·2^(attempt-1)], capped. */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** A poll shown as text (issue 21): its question, then one line per option. Votes are not shown. */
export function pollBody(question: string, options: readonly string[]): string {
  return [`📊 ${question}`, ...options.map((o) => `• ${o}`)].join("\n");
}
