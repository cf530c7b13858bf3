import { contactsToCsv, type ContactCsvRow, type ContactDTO } from "@balcao/shared";
import { fetchContactsPage } from "./api";

export const CONTACTS_CSV_FILE = "contatos.csv";

export interface ExportProgress {
  page: number;
  count: number;
}

/** Fetches every page of the contacts list (same search as the screen), reporting progress after each page. */
export async function fetchAllContacts(searchParam: string, onProgress: (p: ExportProgress) => void, signal?: AbortSignal): Promise<ContactDTO[]> {
  const rows: ContactDTO[] = [];
  const seen = new Set<number>();
  for (let page = 1; ; page++) {
    signal?.throwIfAborted();
    const res = await fetchContactsPage(searchParam, page, signal);
    for (const c of res.contacts) if (!seen.has(c.id) && seen.add(c.id)) rows.push(c);
    onProgress({ page, count: rows.length });
    if (!res.hasMore || res.contacts.length === 0) return rows;
  }
}

/** Hands a text file to the browser as a download (a temporary object URL on a hidden link). */
export function downloadTextFile(text: string, fileName: string, type = "text/csv;charset=utf-8"): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.style.display = "none";
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The contacts page's export (spec §2): all pages, then `contactsToCsv` (';', name/number/email, BOM) as contatos.csv. */
export async function exportContactsCsv(searchParam: string, onProgress: (p: ExportProgress) => void, signal?: AbortSignal): Promise<number> {
  const contacts = await fetchAllContacts(searchParam, onProgress, signal);
  const rows: ContactCsvRow[] = contacts.map(({ name, number, email }) => ({ name, number, email }));
  downloadTextFile(contactsToCsv(rows), CONTACTS_CSV_FILE);
  return rows.length;
}
