import { Link } from "@mui/material";
import { Fragment } from "react";
import { Link as RouterLink } from "react-router";

/** `#123` (not inside a word) names a ticket. */
const TICKET_MENTION = /(^|[^\w#])#(\d{1,10})\b/g;

/** The ticket numbers a text mentions, in order, without repeats. */
export function ticketMentions(text: string): number[] {
  const ids = [...text.matchAll(TICKET_MENTION)].map((m) => Number(m[2]));
  return [...new Set(ids)];
}

/**
 * A chat message's text, line breaks kept. With `tickets` (the mentioned ids known to exist in the company),
 * each `#123` of one of them links to /tickets/123; any other `#n` stays text.
 */
export function MessageText({ text, tickets }: { text: string; tickets?: ReadonlySet<number> }) {
  if (!tickets || tickets.size === 0) return <>{text}</>;
  const parts: React.ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(TICKET_MENTION)) {
    const id = Number(match[2]);
    if (!tickets.has(id)) continue;
    const start = match.index + match[1]!.length;
    parts.push(<Fragment key={`t${last}`}>{text.slice(last, start)}</Fragment>);
    parts.push(
      <Link key={`l${start}`} component={RouterLink} to={`/tickets/${id}`} underline="always">
        #{id}
      </Link>,
    );
    last = start + 1 + match[2]!.length;
  }
  parts.push(<Fragment key="end">{text.slice(last)}</Fragment>);
  return <>{parts}</>;
}
