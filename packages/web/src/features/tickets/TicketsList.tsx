import type { TicketDTO } from "@balcao/shared";
import { List } from "@mui/material";
import type { ReactNode } from "react";
import { useCallback, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { EmptyState } from "../../components/EmptyState";
import { InfiniteScrollArea } from "../../components/InfiniteScrollArea";
import { LoadingState } from "../../components/LoadingState";
import type { useTicketsList } from "./api";
import { TicketListItem } from "./TicketListItem";
import { flattenTickets } from "./ticketsCache";
import { useTicketTransitions, type TicketTransition } from "./useTicketTransitions";
import { useInboxActions } from "../keyboard/inboxActions";

interface TicketsListProps {
  query: ReturnType<typeof useTicketsList>;
  selectedUuid?: string;
  onSpy: (ticket: TicketDTO) => void;
  label: string;
  emptyText?: string;
  /** What to do next, under the empty text (a sentence and a link). */
  emptyHint?: { description: string; action?: ReactNode };
  /** Called after a successful transition from a row (the manager switches to Atendendo after Aceitar). */
  onTransitioned?: (transition: TicketTransition) => void;
}

/** A ticket list with infinite scroll (next page within 100 px of the end). */
export function TicketsList({ query, selectedUuid, onSpy, label, emptyText, emptyHint, onTransitioned }: TicketsListProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { run, busyId } = useTicketTransitions();
  const tickets = useMemo(() => flattenTickets(query.data), [query.data]);
  const onOpen = useCallback((ticket: TicketDTO) => navigate(`/tickets/${ticket.uuid}`), [navigate]);
  const onTransition = useCallback(
    (ticket: TicketDTO, transition: TicketTransition) =>
      void run(ticket, transition).then((updated) => {
        if (updated) onTransitioned?.(transition);
      }),
    [run, onTransitioned],
  );

  // Keyboard (issue 16): j / k open the next / previous ticket of the list on screen.
  const step = (by: 1 | -1) => () => {
    if (tickets.length === 0) return;
    const at = tickets.findIndex((ticket) => ticket.uuid === selectedUuid);
    const target = at < 0 ? tickets[by === 1 ? 0 : tickets.length - 1] : tickets[at + by];
    if (target) onOpen(target);
  };
  useInboxActions({ next: step(1), previous: step(-1) });

  return (
    <InfiniteScrollArea
      square
      variant="elevation"
      elevation={0}
      hasMore={!!query.hasNextPage}
      loading={query.isFetching}
      onLoadMore={() => void query.fetchNextPage()}
      sx={{ borderTop: 1, borderColor: "divider" }}
    >
      <List disablePadding aria-label={label}>
        {tickets.map((ticket) => (
          <TicketListItem
            key={ticket.id}
            ticket={ticket}
            selected={ticket.uuid === selectedUuid}
            busy={busyId === ticket.id}
            onOpen={onOpen}
            onTransition={onTransition}
            onSpy={onSpy}
          />
        ))}
      </List>
      {query.isFetching && <LoadingState />}
      {query.isError && <EmptyState title={t("errors.listFailed")} />}
      {!query.isFetching && !query.isError && tickets.length === 0 && (
        <EmptyState title={emptyText ?? t("tickets.empty")} description={emptyHint?.description} action={emptyHint?.action} />
      )}
    </InfiniteScrollArea>
  );
}
