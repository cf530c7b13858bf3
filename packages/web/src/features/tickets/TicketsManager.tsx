import { can, type TicketDTO } from "@balcao/shared";
import { Badge, Box, Button, Checkbox, FormControlLabel, ListItemText, MenuItem, Paper, Select, Switch, Tab, Tabs, Tooltip } from "@mui/material";
import AddCircleOutline from "@mui/icons-material/AddCircleOutlineOutlined";
import CheckBoxOutlined from "@mui/icons-material/CheckBoxOutlined";
import MoveToInbox from "@mui/icons-material/MoveToInbox";
import Search from "@mui/icons-material/Search";
import { lazy, Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { SearchField } from "../../components/SearchField";
import { useDebouncedValue } from "../../hooks/useDebouncedValue";
import { useSession } from "../auth/SessionProvider";
import { useQueueChoices, useTagOptions, useTicketsList, useUserOptions } from "./api";
import { countLabel } from "./ticketsCache";
import { TicketsList } from "./TicketsList";
import { lazyWhenOpened } from "../../components/lazyWhenOpened";
import { whenIdle } from "../../components/whenIdle";

// Downloaded when first opened (issue 20): its contact options carry the phone formatting.
const NewTicketModal = lazyWhenOpened(() => import("./NewTicketModal").then((module) => module.NewTicketModal));
// The search tab's filters (Autocomplete) download once the page is idle, before the tab is opened (issue 20).
const loadSearchFilters = () => import("./TicketSearchFilters");
const TicketSearchFilters = lazy(() => loadSearchFilters().then((module) => ({ default: module.TicketSearchFilters })));

type MainTab = "open" | "closed" | "search";
type OpenTab = "open" | "pending";

function CountBadge({ label, count }: { label: string; count: string }) {
  return (
    <Badge badgeContent={count === "0" ? 0 : count} color="secondary" max={9999} sx={{ "& .MuiBadge-badge": { right: -14 } }}>
      <span>{label}</span>
    </Badge>
  );
}

/** The ticket manager of spec §2: tabs open / closed / search, sub-tabs assigned / pending, options bar and lists. */
export function TicketsManager({ selectedUuid, onSpy }: { selectedUuid?: string; onSpy: (ticket: TicketDTO) => void }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const showAllAllowed = can(user, "tickets-manager:showall");
  const userFilterAllowed = can(user, "tickets:filterByUser");
  const [tab, setTab] = useState<MainTab>("open");
  const [openTab, setOpenTab] = useState<OpenTab>("open");
  const [showAll, setShowAll] = useState(false);
  const [queueIds, setQueueIds] = useState<number[]>(() => user?.queues.map((q) => q.id) ?? []);
  const [newTicketOpen, setNewTicketOpen] = useState(false);
  const [search, setSearch] = useState("");
  const searchParam = useDebouncedValue(search.trim().toLowerCase(), 500);
  const [tagIds, setTagIds] = useState<number[]>([]);
  const [userIds, setUserIds] = useState<number[]>([]);
  // Empty inbox: where tickets come from, and (for who can add one) a link to the connections.
  const emptyHint = {
    description: t("tickets.emptyHint"),
    action: can(user, "connections-page:addConnection") ? (
      <Button component={RouterLink} to="/connections" size="small">
        {t("tickets.emptyHintLink")}
      </Button>
    ) : undefined,
  };
  const { queues } = useQueueChoices();
  const tagOptions = useTagOptions(tab === "search");
  const userOptions = useUserOptions(tab === "search" && userFilterAllowed);

  useEffect(() => whenIdle(() => void loadSearchFilters().catch(() => undefined)), []);

  const all = showAllAllowed && showAll;
  const openQuery = useTicketsList({ status: "open", queueIds, showAll: all });
  const pendingQuery = useTicketsList({ status: "pending", queueIds });
  const closedQuery = useTicketsList({ status: "closed", queueIds, showAll: all }, tab === "closed");
  const searchQuery = useTicketsList(
    { searchParam, tags: tagIds, users: userFilterAllowed ? userIds : [], queueIds, showAll: all },
    tab === "search",
  );

  return (
    <Paper variant="outlined" sx={{ display: "flex", flexDirection: "column", height: "100%", minHeight: 0, overflow: "hidden" }}>
      <Tabs value={tab} onChange={(_e, v: MainTab) => setTab(v)} variant="fullWidth" aria-label={t("tickets.tabs.label")}>
        <Tab
          value="open"
          icon={<MoveToInbox fontSize="small" />}
          iconPosition="start"
          label={t("tickets.tabs.open")}
          sx={{ minHeight: 48, minWidth: 0, px: 1, fontSize: 13 }}
        />
        <Tab
          value="closed"
          icon={<CheckBoxOutlined fontSize="small" />}
          iconPosition="start"
          label={t("tickets.tabs.closed")}
          sx={{ minHeight: 48, minWidth: 0, px: 1, fontSize: 13 }}
        />
        <Tab
          value="search"
          icon={<Search fontSize="small" />}
          iconPosition="start"
          label={t("tickets.tabs.search")}
          sx={{ minHeight: 48, minWidth: 0, px: 1, fontSize: 13 }}
        />
      </Tabs>

      <Box sx={{ display: "flex", alignItems: "center", flexWrap: "wrap", gap: 1, px: 1, py: 1, borderTop: 1, borderColor: "divider" }}>
        {tab === "search" ? (
          <SearchField value={search} onChange={setSearch} placeholder={t("tickets.search.placeholder")} autoFocus sx={{ flex: 1, minWidth: 160 }} />
        ) : (
          <Button variant="outlined" size="small" startIcon={<AddCircleOutline />} onClick={() => setNewTicketOpen(true)}>
            {t("tickets.buttons.newTicket")}
          </Button>
        )}
        {showAllAllowed && tab !== "search" && (
          <Tooltip title={t("tickets.showAll.tooltip")}>
            <FormControlLabel
              sx={{ mr: 0 }}
              control={<Switch size="small" checked={showAll} onChange={(e) => setShowAll(e.target.checked)} />}
              label={t("tickets.showAll.label")}
            />
          </Tooltip>
        )}
        <Select
          multiple
          size="small"
          displayEmpty
          value={queueIds}
          onChange={(e) => setQueueIds(typeof e.target.value === "string" ? [] : (e.target.value as number[]))}
          renderValue={(selected) =>
            selected.length === 0 ? t("tickets.queueFilter.all") : t("tickets.queueFilter.selected", { count: selected.length })
          }
          inputProps={{ "aria-label": t("tickets.queueFilter.label") }}
          sx={{ minWidth: 130, ml: "auto" }}
        >
          {queues.length === 0 && (
            <MenuItem disabled value={-1}>
              {t("tickets.queueFilter.none")}
            </MenuItem>
          )}
          {queues.map((queue) => (
            <MenuItem key={queue.id} value={queue.id} dense>
              <Checkbox size="small" checked={queueIds.includes(queue.id)} sx={{ color: queue.color, "&.Mui-checked": { color: queue.color } }} />
              <ListItemText primary={queue.name} />
            </MenuItem>
          ))}
        </Select>
      </Box>

      {tab === "search" && (
        <Suspense fallback={null}>
          <TicketSearchFilters
            tags={tagOptions.data ?? []}
            tagsFailed={tagOptions.isError}
            tagIds={tagIds}
            onTagIds={setTagIds}
            users={userFilterAllowed ? (userOptions.data ?? []) : undefined}
            userIds={userIds}
            onUserIds={setUserIds}
          />
        </Suspense>
      )}

      {tab === "open" && (
        <>
          <Tabs
            value={openTab}
            onChange={(_e, v: OpenTab) => setOpenTab(v)}
            variant="fullWidth"
            aria-label={t("tickets.tabs.openLabel")}
            sx={{ minHeight: 40, borderTop: 1, borderColor: "divider" }}
          >
            <Tab value="open" label={<CountBadge label={t("tickets.tabs.assigned")} count={countLabel(openQuery.data)} />} sx={{ minHeight: 40 }} />
            <Tab
              value="pending"
              label={<CountBadge label={t("tickets.tabs.pending")} count={countLabel(pendingQuery.data)} />}
              sx={{ minHeight: 40 }}
            />
          </Tabs>
          {openTab === "open" ? (
            <TicketsList
              query={openQuery}
              selectedUuid={selectedUuid}
              onSpy={onSpy}
              label={t("tickets.tabs.assigned")}
              emptyText={t("tickets.emptyOpen")}
              emptyHint={emptyHint}
            />
          ) : (
            <TicketsList
              query={pendingQuery}
              selectedUuid={selectedUuid}
              onSpy={onSpy}
              label={t("tickets.tabs.pending")}
              emptyText={t("tickets.emptyPending")}
              emptyHint={emptyHint}
              onTransitioned={(tr) => tr === "accept" && setOpenTab("open")}
            />
          )}
        </>
      )}
      {tab === "closed" && <TicketsList query={closedQuery} selectedUuid={selectedUuid} onSpy={onSpy} label={t("tickets.tabs.closed")} />}
      {tab === "search" && <TicketsList query={searchQuery} selectedUuid={selectedUuid} onSpy={onSpy} label={t("tickets.tabs.search")} />}

      <NewTicketModal open={newTicketOpen} onClose={() => setNewTicketOpen(false)} />
    </Paper>
  );
}
