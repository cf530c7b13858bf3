import { TICKET_MENTION } from "@balcao/shared";
import { Link } from "@mui/material";
import { Fragment, type ReactNode } from "react";
import { Link as RouterLink } from "react-router";

/**
 * A chat message's text (line breaks kept by the caller's `pre-wrap`). Each `#123` the server found among the
 * company's tickets (`tickets`) links to that ticket's page; any other `#n` stays text.
 */
export function MessageText({ text, tickets = [] }: { text: string; tickets?: readonly { id: number; uuid: string }[] }) {
  if (tickets.length === 0) return <>{text}</>;
  const uuidById = new Map(tickets.map((t) => [t.id, t.uuid]));
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(TICKET_MENTION)) {
    const uuid = uuidById.get(Number(match[2]));
    if (!uuid) continue;
    const start = match.index + match[1]!.length;
    parts.push(<Fragment key={`t${start}`}>{text.slice(last, start)}</Fragment>);
    parts.push(
      <Link key={`l${start}`} component={RouterLink} to={`/tickets/${uuid}`} underline="always" data-testid="ticket-mention">
        #{match[2]}
      </Link>,
    );
    last = start + 1 + match[2]!.length;
  }
  parts.push(<Fragment key="end">{text.slice(last)}</Fragment>);
  return <>{parts}</>;
}
