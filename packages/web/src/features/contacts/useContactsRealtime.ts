import { useQueryClient } from "@tanstack/react-query";
import { useSocketEvent } from "../../api/SocketProvider";
import { patchContactsCache, type ContactEvent } from "./contactsCache";

/** Keeps cached contact lists in step with the `contact` socket event (create, update, delete, imports). */
export function useContactsRealtime(): void {
  const queryClient = useQueryClient();
  useSocketEvent<ContactEvent>("contact", (event) => patchContactsCache(queryClient, event));
}
