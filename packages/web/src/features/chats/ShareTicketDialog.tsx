import type { ChatDTO } from "@balcao/shared";
import { Autocomplete, Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { enqueueSnackbar } from "../../components/toasts";
import { useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { api } from "../../api/client";
import { useListSearch } from "../../components/list/useListData";
import { uniqueById } from "../../components/uniqueById";
import { chatKeys, useChatsList } from "./api";

interface ShareTicketDialogProps {
  open: boolean;
  onClose: () => void;
  ticket: { id: number; contact: { name: string } };
}

/** The message that shares a ticket: `#id` (linked for members by the server) and the contact's name. */
export const shareText = (ticket: ShareTicketDialogProps["ticket"], note: string) =>
  [`#${ticket.id} — ${ticket.contact.name}`, note.trim()].filter(Boolean).join("\n");

/**
 * Shares a ticket into one of the caller's internal chats (issue 18, beyond the spec): the chat gets a message
 * with `#id`, which members see as a link to the ticket.
 */
export function ShareTicketDialog({ open, onClose, ticket }: ShareTicketDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{t("chats.share.title", { id: ticket.id })}</DialogTitle>
      {open && <ShareForm ticket={ticket} onClose={onClose} />}
    </Dialog>
  );
}

function ShareForm({ ticket, onClose }: Omit<ShareTicketDialogProps, "open">) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const search = useListSearch();
  const feed = useChatsList(search.searchParam);
  const chats = useMemo(() => uniqueById((feed.data?.pages ?? []).map((p) => p.records)), [feed.data]);
  const [chat, setChat] = useState<ChatDTO | null>(null);
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);

  const share = async () => {
    if (!chat) return;
    setBusy(true);
    try {
      await api.post(`/chats/${chat.id}/messages`, { message: shareText(ticket, note) });
      void queryClient.invalidateQueries({ queryKey: chatKeys.root });
      enqueueSnackbar(t("chats.share.done", { title: chat.title }), {
        variant: "success",
        autoHideDuration: 3000,
        action: () => (
          <Button color="inherit" size="small" onClick={() => navigate(`/chats/${chat.id}`)}>
            {t("chats.share.open")}
          </Button>
        ),
      });
      onClose();
    } catch {
      // Spec §8: chat errors are silently ignored; the dialog stays open to try again.
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <DialogContent dividers sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
        <Autocomplete
          options={chats}
          loading={feed.isFetching}
          value={chat}
          onChange={(_e, value) => setChat(value)}
          onInputChange={(_e, value, reason) => reason === "input" && search.setSearch(value)}
          filterOptions={(x) => x}
          getOptionLabel={(c) => c.title}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          noOptionsText={t("chats.list.empty")}
          renderInput={(params) => <TextField {...params} label={t("chats.share.chat")} autoFocus />}
        />
        <TextField label={t("chats.share.note")} value={note} onChange={(e) => setNote(e.target.value)} multiline maxRows={4} fullWidth />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit" disabled={busy}>
          {t("common.cancel")}
        </Button>
        <Button variant="contained" onClick={() => void share()} disabled={!chat || busy}>
          {t("chats.share.submit")}
        </Button>
      </DialogActions>
    </>
  );
}
