import type { ContactListImportDTO } from "@balcao/shared";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { errorText } from "../../components/toastError";
import { fetchImport, uploadSpreadsheet, useContactListsRealtime } from "./api";
import { contactListKeys } from "./queryKeys";

export type ImportState =
  | { phase: "idle" }
  | { phase: "uploading"; fileName: string }
  /** Queued or running on the server: progress from `ContactList` events (and a poll, should one be missed). */
  | { phase: "importing"; result: ContactListImportDTO }
  | { phase: "done"; result: ContactListImportDTO }
  | { phase: "failed"; message: string };

/** How often the import is asked for while it runs, besides its events. */
export const IMPORT_POLL_MS = 3_000;

const isOver = (r: ContactListImportDTO) => r.status === "done" || r.status === "failed";

/** Uploads a spreadsheet into a list and follows the import to its end. */
export function useSpreadsheetImport(contactListId: number) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<ImportState>({ phase: "idle" });
  const current = useRef<number | null>(null);

  const settle = useCallback(
    (result: ContactListImportDTO) => {
      if (result.id !== current.current) return;
      if (!isOver(result)) {
        // Progress events carry no bad rows: keep the counters moving only.
        setState({ phase: "importing", result });
        return;
      }
      current.current = null;
      if (result.status === "failed") setState({ phase: "failed", message: errorText(result.error ?? "") });
      else setState({ phase: "done", result });
      void queryClient.invalidateQueries({ queryKey: contactListKeys.items(contactListId) });
      void queryClient.invalidateQueries({ queryKey: contactListKeys.detail(contactListId) });
    },
    [contactListId, queryClient],
  );

  useContactListsRealtime((event) => {
    if (event.action === "import") settle(event.import);
  });

  const importing = state.phase === "importing" ? state.result.id : null;
  useEffect(() => {
    if (importing === null) return;
    const timer = setInterval(() => {
      fetchImport(contactListId, importing).then(settle, () => undefined);
    }, IMPORT_POLL_MS);
    return () => clearInterval(timer);
  }, [contactListId, importing, settle]);

  const start = useCallback(
    async (file: File) => {
      setState({ phase: "uploading", fileName: file.name });
      try {
        const result = await uploadSpreadsheet(contactListId, file);
        current.current = result.id;
        settle(result);
      } catch (err) {
        current.current = null;
        setState({ phase: "failed", message: errorText(err) });
      }
    },
    [contactListId, settle],
  );

  const close = useCallback(() => {
    // A running import goes on on the server; its end still refreshes the list through the events.
    current.current = null;
    setState({ phase: "idle" });
  }, []);

  return { state, start, close };
}
