import { formatPhoneNumber, type KanbanTicketDTO } from "@balcao/shared";
import {
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
  type ScreenReaderInstructions,
} from "@dnd-kit/core";
import { Alert, Box, Button, Card, CardActions, CardContent, Chip, IconButton, Menu, MenuItem, Paper, Tooltip, Typography } from "@mui/material";
import DragIndicator from "@mui/icons-material/DragIndicator";
import MoreVert from "@mui/icons-material/MoreVert";
import { memo, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { EmptyState } from "../../components/EmptyState";
import { LoadingState } from "../../components/LoadingState";
import { PageHeader } from "../../components/PageHeader";
import { toastError } from "../../components/toastError";
import { groupByLane, useKanbanBoard, useKanbanLanes, useKanbanRealtime, useMoveCard, type Lane } from "./api";
import { formatNumber } from "../../app/format";
import { stripWhatsApp } from "../messages/whatsappMarkers";

/** Cards have a fixed height so each lane renders only those in view (5,000 cards stay smooth). */
export const CARD_HEIGHT = 148;
const CARD_GAP = 8;
const ROW = CARD_HEIGHT + CARD_GAP;
const OVERSCAN = 4;
const LANE_WIDTH = 300;
const OPEN_LANE = "lane:open";

const laneKey = (laneId: number | null) => (laneId === null ? OPEN_LANE : `lane:${laneId}`);
const laneIdOf = (key: string): number | null => (key === OPEN_LANE ? null : Number(key.slice("lane:".length)));

/**
 * Keyboard moves (Space picks a card up, ←/→ go to the previous/next lane, Space drops, Esc cancels): the
 * dragged card jumps to the neighbouring lane's centre instead of creeping 25 px per key press.
 */
export const laneKeyboardCoordinates: KeyboardCoordinateGetter = (event, { context: { collisionRect, droppableRects, droppableContainers } }) => {
  const step = event.code === "ArrowRight" ? 1 : event.code === "ArrowLeft" ? -1 : 0;
  if (!step || !collisionRect) return undefined;
  event.preventDefault();
  const lanes = droppableContainers
    .getEnabled()
    .map((container) => droppableRects.get(container.id))
    .filter((rect): rect is NonNullable<typeof rect> => !!rect)
    .sort((a, b) => a.left - b.left);
  const centre = collisionRect.left + collisionRect.width / 2;
  let index = lanes.findIndex((rect) => centre >= rect.left && centre <= rect.left + rect.width);
  if (index < 0) index = 0;
  const target = lanes[index + step];
  if (!target) return undefined;
  return { x: target.left + target.width / 2 - collisionRect.width / 2, y: collisionRect.top };
};

/** Kanban board /kanban (spec §2, §4): lane 'Em aberto' plus one per Kanban tag; drag a card to change its tag. */
export default function KanbanPage() {
  const { t } = useTranslation();
  const lanesQuery = useKanbanLanes();
  const boardQuery = useKanbanBoard();
  useKanbanRealtime();
  const lanes = useMemo(() => lanesQuery.data ?? [], [lanesQuery.data]);
  const cards = boardQuery.data?.tickets;
  const groups = useMemo(() => groupByLane(cards ?? [], lanes), [cards, lanes]);
  const move = useMoveCard(lanes);
  const [active, setActive] = useState<KanbanTicketDTO | null>(null);

  const sensors = useSensors(
    // A click on 'Ver Ticket' or the menu is not a drag.
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: laneKeyboardCoordinates }),
  );

  const laneName = useCallback(
    (laneId: number | null) => (laneId === null ? t("kanban.openLane") : (lanes.find((l) => l.id === laneId)?.name ?? "")),
    [lanes, t],
  );
  const laneOfCard = useCallback(
    (cardId: number) => {
      for (const [laneId, list] of groups) if (list.some((c) => c.id === cardId)) return laneId;
      return null;
    },
    [groups],
  );

  const moveCard = useCallback(
    (card: KanbanTicketDTO, from: number | null, to: number | null) => {
      if (from === to) return;
      move.mutate({ card, from, to }, { onError: (err) => toastError(err) });
    },
    [move],
  );

  const onDragStart = (event: DragStartEvent) => setActive((event.active.data.current?.card as KanbanTicketDTO | undefined) ?? null);
  const onDragEnd = (event: DragEndEvent) => {
    setActive(null);
    const card = event.active.data.current?.card as KanbanTicketDTO | undefined;
    if (!card || !event.over) return;
    moveCard(card, laneOfCard(card.id), laneIdOf(String(event.over.id)));
  };

  const announcements: Announcements = {
    onDragStart: ({ active: a }) => t("kanban.a11y.picked", { card: (a.data.current?.card as KanbanTicketDTO | undefined)?.contact.name ?? "" }),
    onDragOver: ({ over }) => (over ? t("kanban.a11y.over", { lane: laneName(laneIdOf(String(over.id))) }) : t("kanban.a11y.outside")),
    onDragEnd: ({ over }) => (over ? t("kanban.a11y.dropped", { lane: laneName(laneIdOf(String(over.id))) }) : t("kanban.a11y.cancelled")),
    onDragCancel: () => t("kanban.a11y.cancelled"),
  };
  const instructions: ScreenReaderInstructions = { draggable: t("kanban.a11y.instructions") };

  let body: ReactNode;
  if (lanesQuery.isPending || boardQuery.isPending) body = <LoadingState />;
  else if (lanesQuery.isError || boardQuery.isError) body = <EmptyState title={t("kanban.loadError")} />;
  else
    body = (
      <DndContext
        sensors={sensors}
        onDragStart={onDragStart}
        onDragEnd={onDragEnd}
        onDragCancel={() => setActive(null)}
        accessibility={{ announcements, screenReaderInstructions: instructions }}
      >
        <Box sx={{ display: "flex", gap: 2, overflowX: "auto", flex: 1, minHeight: 0, pb: 1 }} data-testid="kanban-board">
          {[null, ...lanes.map((l) => l.id)].map((laneId) => (
            <LaneColumn
              key={laneKey(laneId)}
              laneId={laneId}
              lane={laneId === null ? null : (lanes.find((l) => l.id === laneId) ?? null)}
              title={laneName(laneId)}
              cards={groups.get(laneId) ?? []}
              lanes={lanes}
              activeId={active?.id ?? null}
              onMove={moveCard}
              laneName={laneName}
            />
          ))}
        </Box>
        <DragOverlay dropAnimation={null}>{active ? <CardBody card={active} overlay /> : null}</DragOverlay>
      </DndContext>
    );

  return (
    <Box sx={{ display: "flex", flexDirection: "column", height: "100%" }}>
      <PageHeader title={t("kanban.title")} />
      {boardQuery.data?.truncated && (
        <Alert severity="warning" sx={{ mb: 1 }}>
          {t("kanban.truncated")}
        </Alert>
      )}
      {lanesQuery.isSuccess && lanes.length === 0 && (
        <Alert severity="info" sx={{ mb: 1 }}>
          {t("kanban.noLanes")}
        </Alert>
      )}
      {body}
    </Box>
  );
}

interface LaneColumnProps {
  laneId: number | null;
  lane: Lane | null;
  title: string;
  cards: KanbanTicketDTO[];
  lanes: Lane[];
  activeId: number | null;
  onMove: (card: KanbanTicketDTO, from: number | null, to: number | null) => void;
  laneName: (laneId: number | null) => string;
}

function LaneColumn({ laneId, lane, title, cards, lanes, activeId, onMove, laneName }: LaneColumnProps) {
  const { t } = useTranslation();
  const { setNodeRef, isOver } = useDroppable({ id: laneKey(laneId) });
  const headingId = `kanban-lane-${laneId ?? "open"}`;
  return (
    <Paper
      ref={setNodeRef}
      component="section"
      aria-labelledby={headingId}
      data-testid="kanban-lane"
      data-lane={laneId ?? "open"}
      variant="outlined"
      sx={{
        width: LANE_WIDTH,
        flex: `0 0 ${LANE_WIDTH}px`,
        display: "flex",
        flexDirection: "column",
        minHeight: 0,
        bgcolor: isOver ? "action.hover" : "background.default",
        borderTop: 4,
        borderTopColor: lane?.color ?? "grey.500",
      }}
    >
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, px: 1.5, py: 1 }}>
        <Typography
          id={headingId}
          variant="subtitle1"
          component="h2"
          sx={{ fontWeight: 600, flex: 1, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}
        >
          {title}
        </Typography>
        <Chip
          size="small"
          label={formatNumber(cards.length)}
          aria-label={t("kanban.count", { count: cards.length })}
          data-testid="kanban-lane-count"
        />
      </Box>
      <VirtualCards cards={cards} activeId={activeId} emptyText={t("kanban.emptyLane")}>
        {(card) => <DraggableCard card={card} laneId={laneId} lanes={lanes} onMove={onMove} laneName={laneName} hidden={card.id === activeId} />}
      </VirtualCards>
    </Paper>
  );
}

/** Renders only the cards inside the lane's scroll window (plus the one being dragged, which must stay mounted). */
function VirtualCards({
  cards,
  activeId,
  emptyText,
  children,
}: {
  cards: KanbanTicketDTO[];
  activeId: number | null;
  emptyText: string;
  children: (card: KanbanTicketDTO) => ReactNode;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 800 });
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const measure = () => setView({ top: el.scrollTop, height: el.clientHeight || 800 });
    measure();
    const observer = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(measure);
    observer?.observe(el);
    return () => observer?.disconnect();
  }, []);
  const first = Math.max(0, Math.floor(view.top / ROW) - OVERSCAN);
  const last = Math.min(cards.length, Math.ceil((view.top + view.height) / ROW) + OVERSCAN);
  const visible = cards.slice(first, last).map((card, i) => ({ card, index: first + i }));
  const activeIndex = activeId === null ? -1 : cards.findIndex((c) => c.id === activeId);
  if (activeIndex >= 0 && (activeIndex < first || activeIndex >= last)) visible.push({ card: cards[activeIndex]!, index: activeIndex });
  return (
    <Box
      ref={scroller}
      onScroll={(e) => {
        const el = e.currentTarget;
        setView({ top: el.scrollTop, height: el.clientHeight || 800 });
      }}
      sx={{ flex: 1, overflowY: "auto", minHeight: 120, px: 1, pb: 1 }}
      data-testid="kanban-scroller"
    >
      {cards.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ textAlign: "center", py: 4 }}>
          {emptyText}
        </Typography>
      ) : (
        // The list role sits on the box whose children are the list items (axe: aria-required-children).
        <Box role="list" sx={{ position: "relative", height: cards.length * ROW }}>
          {visible.map(({ card, index }) => (
            <Box key={card.id} role="listitem" sx={{ position: "absolute", top: index * ROW, left: 0, right: 0, height: CARD_HEIGHT }}>
              {children(card)}
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
}

interface DraggableCardProps {
  card: KanbanTicketDTO;
  laneId: number | null;
  lanes: Lane[];
  hidden: boolean;
  onMove: (card: KanbanTicketDTO, from: number | null, to: number | null) => void;
  laneName: (laneId: number | null) => string;
}

const DraggableCard = memo(function DraggableCard({ card, laneId, lanes, hidden, onMove, laneName }: DraggableCardProps) {
  const { t } = useTranslation();
  // The whole card drags with the pointer; the handle is the keyboard's (Space picks up, ←/→, Space drops).
  const { setNodeRef, setActivatorNodeRef, attributes, listeners } = useDraggable({ id: `card:${card.id}`, data: { card } });
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const targets = [null, ...lanes.map((l) => l.id)].filter((id) => id !== laneId);
  return (
    <Box
      ref={setNodeRef}
      {...listeners}
      sx={{ height: "100%", opacity: hidden ? 0.35 : 1, touchAction: "none" }}
      data-testid="kanban-card"
      data-ticket-id={card.id}
    >
      <CardBody
        card={card}
        dragHandle={
          <Tooltip title={t("kanban.dragHint")}>
            <IconButton
              ref={setActivatorNodeRef}
              size="small"
              {...attributes}
              aria-label={t("kanban.dragLabel", { name: card.contact.name, lane: laneName(laneId) })}
              sx={{ cursor: "grab" }}
            >
              <DragIndicator fontSize="small" />
            </IconButton>
          </Tooltip>
        }
        menu={
          <>
            <Tooltip title={t("kanban.moveTo")}>
              <IconButton
                size="small"
                aria-label={t("kanban.moveLabel", { name: card.contact.name })}
                aria-haspopup="menu"
                onClick={(e) => setMenu(e.currentTarget)}
              >
                <MoreVert fontSize="small" />
              </IconButton>
            </Tooltip>
            <Menu anchorEl={menu} open={!!menu} onClose={() => setMenu(null)}>
              <MenuItem disabled dense>
                {t("kanban.moveTo")}
              </MenuItem>
              {targets.map((target) => (
                <MenuItem
                  key={target ?? "open"}
                  onClick={() => {
                    setMenu(null);
                    onMove(card, laneId, target);
                  }}
                >
                  {laneName(target)}
                </MenuItem>
              ))}
            </Menu>
          </>
        }
      />
    </Box>
  );
});

function CardBody({
  card,
  overlay = false,
  dragHandle,
  menu,
}: {
  card: KanbanTicketDTO;
  overlay?: boolean;
  dragHandle?: ReactNode;
  menu?: ReactNode;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Card
      variant="outlined"
      sx={{ height: "100%", display: "flex", flexDirection: "column", boxShadow: overlay ? 6 : 0, cursor: overlay ? "grabbing" : undefined }}
    >
      <CardContent sx={{ pb: 0.5, pt: 1, px: 1.5, flex: 1, minHeight: 0 }}>
        <Box sx={{ display: "flex", alignItems: "center", gap: 0.5 }}>
          {dragHandle}
          <Typography variant="caption" color="text.secondary" data-testid="kanban-card-number">
            #{card.id}
          </Typography>
          <Box sx={{ flex: 1 }} />
          {menu}
        </Box>
        <Typography variant="subtitle2" noWrap title={card.contact.name}>
          {card.contact.name}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="p" noWrap>
          {card.contact.number ? formatPhoneNumber(card.contact.number) : "—"}
        </Typography>
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{ overflow: "hidden", display: "-webkit-box", WebkitLineClamp: 2, WebkitBoxOrient: "vertical", wordBreak: "break-word" }}
        >
          {stripWhatsApp(card.lastMessage)}
        </Typography>
      </CardContent>
      <CardActions sx={{ pt: 0, px: 1.5, pb: 1 }}>
        <Button size="small" variant="outlined" onClick={() => navigate(`/tickets/${card.uuid}`)} tabIndex={overlay ? -1 : undefined}>
          {t("kanban.viewTicket")}
        </Button>
      </CardActions>
    </Card>
  );
}
