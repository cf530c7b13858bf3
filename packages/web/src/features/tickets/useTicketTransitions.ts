import type { TicketDTO, TicketUpdateBody } from "@balcao/shared";
import { useCallback, useState } from "react";
import { useNavigate } from "react-router";
import { toastError } from "../../components/toastError";
import { useUpdateTicket } from "./api";

export type TicketTransition = "accept" | "resolve" | "reopen" | "return";

const BODIES: Record<TicketTransition, TicketUpdateBody> = {
  accept: { status: "open" },
  reopen: { status: "open" },
  resolve: { status: "closed" },
  return: { status: "pending" },
};

/**
 * The ticket transitions of spec §4 with their navigation: after accept or reopen the view goes to
 * /tickets/{uuid} (the reopened ticket stays the current one); after any other change back to /tickets.
 */
export function useTicketTransitions() {
  const navigate = useNavigate();
  const update = useUpdateTicket();
  const [busyId, setBusyId] = useState<number | null>(null);

  const run = useCallback(
    async (ticket: TicketDTO, transition: TicketTransition) => {
      setBusyId(ticket.id);
      try {
        // The server assigns the caller on accept/reopen; sending a userId would read as a transfer.
        const updated = await update.mutateAsync({ id: ticket.id, body: BODIES[transition] });
        if (transition === "accept" || transition === "reopen") navigate(`/tickets/${updated.uuid}`);
        else navigate("/tickets");
        return updated;
      } catch (err) {
        toastError(err);
        return null;
      } finally {
        setBusyId(null);
      }
    },
    [navigate, update],
  );

  return { run, busyId };
}
