import { ComingSoon } from "../../components/ComingSoon";

/** Tickets page /tickets/:ticketId? — filled in by its own issue. */
export default function TicketsPage() {
  return <ComingSoon titleKey="pages.tickets" />;
}
