import { can, formatPhoneNumber, type ContactListResponse, type TicketListResponse } from "@balcao/shared";
import { Box, Dialog, List, ListItemButton, ListItemText, ListSubheader, TextField, Typography } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { api } from "../../api/client";
import { MENU, type MenuEntry } from "../../app/layout/menu";
import { useCampaignsVisible } from "../../app/layout/useCampaignsVisible";
import { canOpenPathname } from "../../app/pageAccess";
import { useDebouncedValue } from "../../hooks/useDebouncedValue";
import { useSession } from "../auth/SessionProvider";
import { availableInboxActions, runInboxAction, type InboxActionName } from "./inboxActions";

/** Ticket actions the palette offers on the open ticket (the list's moves stay on j/k). */
const PALETTE_ACTIONS: InboxActionName[] = ["accept", "resolve", "focusComposer", "quickReplies"];
/** Searches start from this many characters (a name's start or a few digits of a number). */
const SEARCH_MIN = 2;

type Group = "actions" | "pages" | "tickets" | "contacts";
interface Item {
  id: string;
  group: Group;
  label: string;
  detail?: string;
  run: () => void;
}

const normalize = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase();

function flatten(entries: MenuEntry[]): MenuEntry[] {
  return entries.flatMap((entry) => (entry.children ? flatten(entry.children) : [entry]));
}

/**
 * The command palette (Ctrl/⌘+K, issue 16): go to a page, find a ticket or a contact by name or number through
 * the tickets and contacts APIs, and run the open ticket's actions. ↑/↓ choose, Enter runs, Esc closes.
 */
export function CommandPalette({ open, onClose }: { open: boolean; onClose: () => void }) {
  // Mounted only while open, without an exit transition: reopened (Ctrl+K) while a fading-out instance was still
  // registered, MUI's modal manager could leave aria-hidden on the app root after the close, hiding the whole
  // page from screen readers. Unmounting removes the modal at once.
  if (!open) return null;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" sx={{ "& .MuiDialog-container": { alignItems: "flex-start", pt: "10vh" } }}>
      <PaletteBody onClose={onClose} />
    </Dialog>
  );
}

function PaletteBody({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const campaigns = useCampaignsVisible();
  const [text, setText] = useState("");
  const [active, setActive] = useState(0);
  const query = normalize(text.trim());
  const searchParam = useDebouncedValue(text.trim(), 250);
  const searching = searchParam.length >= SEARCH_MIN;
  const showAll = can(user, "tickets-manager:showall");

  const tickets = useQuery({
    queryKey: ["palette", "tickets", searchParam, showAll],
    queryFn: ({ signal }) =>
      api.get<TicketListResponse>("/tickets", { searchParam, pageNumber: 1, showAll: showAll ? "true" : undefined }, { signal }),
    enabled: searching,
    retry: false,
  });
  const contacts = useQuery({
    queryKey: ["palette", "contacts", searchParam],
    queryFn: ({ signal }) => api.get<ContactListResponse>("/contacts", { searchParam, pageNumber: 1 }, { signal }),
    enabled: searching,
    retry: false,
  });

  const items = useMemo(() => {
    const go = (path: string) => () => {
      onClose();
      navigate(path);
    };
    const actions: Item[] = availableInboxActions()
      .filter((name) => PALETTE_ACTIONS.includes(name))
      .map((name) => ({
        id: `action:${name}`,
        group: "actions",
        label: t(`keyboard.actions.${name}`),
        run: () => {
          onClose();
          // After the dialog gives the focus back, so the composer keeps it.
          setTimeout(() => runInboxAction(name), 0);
        },
      }));
    const pages: Item[] = flatten(MENU.flatMap((group) => group.items))
      .filter((entry) => canOpenPathname(user, entry.to) && (!entry.campaigns || campaigns.visible))
      .filter((entry, index, all) => all.findIndex((e) => e.to === entry.to) === index)
      .map((entry) => ({
        id: `page:${entry.to}`,
        group: "pages",
        label: t(`mainDrawer.listItems.${entry.label}`),
        detail: entry.to,
        run: go(entry.to),
      }));
    const found: Item[] = searching
      ? (tickets.data?.tickets ?? []).slice(0, 8).map((ticket) => ({
          id: `ticket:${ticket.id}`,
          group: "tickets",
          label: t("keyboard.palette.ticket", { id: ticket.id, name: ticket.contact.name }),
          detail: [formatPhoneNumber(ticket.contact.number ?? ""), t(`tickets.status.${ticket.status}`)].join(" · "),
          run: go(`/tickets/${ticket.uuid}`),
        }))
      : [];
    const people: Item[] = searching
      ? (contacts.data?.contacts ?? []).slice(0, 8).map((contact) => ({
          id: `contact:${contact.id}`,
          group: "contacts",
          label: contact.name,
          detail: formatPhoneNumber(contact.number ?? ""),
          run: go(`/contacts?search=${encodeURIComponent(contact.number || contact.name)}`),
        }))
      : [];
    const matches = (item: Item) => !query || normalize(item.label).includes(query) || normalize(item.detail ?? "").includes(query);
    return [...actions.filter(matches), ...pages.filter(matches), ...found, ...people];
  }, [t, navigate, onClose, user, campaigns.visible, searching, tickets.data, contacts.data, query]);

  const current = Math.min(active, Math.max(0, items.length - 1));
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      if (items.length > 0) setActive((current + step + items.length) % items.length);
    } else if (event.key === "Enter") {
      event.preventDefault();
      items[current]?.run();
    }
  };
  const optionId = (item: Item) => `palette-option-${item.id.replace(/[^\w-]/g, "_")}`;
  const loading = searching && (tickets.isFetching || contacts.isFetching);

  return (
    <Box sx={{ display: "flex", flexDirection: "column", maxHeight: "70vh" }}>
      <TextField
        autoFocus
        fullWidth
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        placeholder={t("keyboard.palette.placeholder")}
        slotProps={{
          htmlInput: {
            role: "combobox",
            "aria-label": t("keyboard.palette.label"),
            "aria-expanded": true,
            "aria-controls": "palette-options",
            "aria-autocomplete": "list",
            "aria-activedescendant": items[current] ? optionId(items[current]) : undefined,
          },
        }}
        sx={{ p: 1.5 }}
      />
      <List id="palette-options" role="listbox" aria-label={t("keyboard.palette.results")} dense sx={{ overflowY: "auto", pt: 0 }}>
        {items.map((item, index) => {
          const first = index === 0 || items[index - 1]!.group !== item.group;
          return (
            <Box key={item.id} role="presentation">
              {first && (
                <ListSubheader role="presentation" sx={{ lineHeight: "28px" }}>
                  {t(`keyboard.palette.groups.${item.group}`)}
                </ListSubheader>
              )}
              <ListItemButton
                id={optionId(item)}
                role="option"
                aria-selected={index === current}
                selected={index === current}
                onClick={item.run}
                onMouseMove={() => index !== current && setActive(index)}
              >
                <ListItemText primary={item.label} secondary={item.detail} />
              </ListItemButton>
            </Box>
          );
        })}
      </List>
      {items.length === 0 && (
        <Typography role="status" color="text.secondary" sx={{ px: 3, pb: 2 }}>
          {loading ? t("keyboard.palette.searching") : t("keyboard.palette.empty")}
        </Typography>
      )}
      {items.length > 0 && loading && (
        <Typography role="status" variant="caption" color="text.secondary" sx={{ px: 3, pb: 1 }}>
          {t("keyboard.palette.searching")}
        </Typography>
      )}
    </Box>
  );
}
