import { isAdmin, type ContactDTO } from "@balcao/shared";
import { Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, MenuItem, TextField } from "@mui/material";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { errorText, toastError } from "../../components/toastError";
import { useSession } from "../auth/SessionProvider";
import { useQueues, useStartTicket } from "./api";

interface StartTicketDialogProps {
  contact: ContactDTO | null;
  onClose: () => void;
}

const NO_QUEUE = "";

/**
 * Start a ticket from the contacts page: pick the queue (required unless admin, spec §5), then
 * POST /tickets {contactId, queueId, status:"open"} and open /tickets/{uuid}.
 */
export function StartTicketDialog({ contact, onClose }: StartTicketDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={!!contact} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="start-ticket-title">
      <DialogTitle id="start-ticket-title">{t("startTicket.title")}</DialogTitle>
      {contact && <StartTicketForm key={contact.id} contact={contact} onClose={onClose} />}
    </Dialog>
  );
}

function StartTicketForm({ contact, onClose }: { contact: ContactDTO; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const admin = isAdmin(user);
  const queues = useQueues(true);
  const start = useStartTicket();
  const [queueId, setQueueId] = useState<string>(NO_QUEUE);
  const [error, setError] = useState<string | null>(null);

  // A profile-user may only open tickets in its own queues (docs/api.md, POST /tickets).
  const mine = new Set(user?.queues.map((q) => q.id) ?? []);
  const options = (queues.data ?? []).filter((q) => admin || mine.has(q.id));
  const selected = queueId === NO_QUEUE && !admin && options.length === 1 ? String(options[0]!.id) : queueId;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (selected === NO_QUEUE && !admin) {
      setError(t("startTicket.selectQueue"));
      return;
    }
    try {
      const ticket = await start.mutateAsync({ contactId: contact.id, queueId: selected === NO_QUEUE ? null : Number(selected) });
      onClose();
      navigate(`/tickets/${ticket.uuid}`);
    } catch (err) {
      setError(errorText(err));
      toastError(err);
    }
  };

  const busy = start.isPending;
  return (
    <Box component="form" noValidate onSubmit={(e) => void submit(e)}>
      <DialogContent sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
        <DialogContentText>{t("startTicket.description", { name: contact.name })}</DialogContentText>
        <TextField
          select
          autoFocus
          fullWidth
          label={t("startTicket.queue")}
          value={selected}
          onChange={(e) => {
            setQueueId(e.target.value);
            setError(null);
          }}
          error={!!error}
          helperText={error ?? (queues.isSuccess && options.length === 0 ? t("startTicket.noQueues") : queues.isError ? errorText(queues.error) : undefined)}
          disabled={queues.isPending}
        >
          {admin && <MenuItem value={NO_QUEUE}>{t("startTicket.noQueue")}</MenuItem>}
          {options.map((queue) => (
            <MenuItem key={queue.id} value={String(queue.id)}>
              <Box component="span" aria-hidden sx={{ width: 12, height: 12, borderRadius: "50%", bgcolor: queue.color, display: "inline-block", mr: 1 }} />
              {queue.name}
            </MenuItem>
          ))}
        </TextField>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit" disabled={busy}>
          {t("common.cancel")}
        </Button>
        <Button type="submit" variant="contained" disabled={busy || queues.isPending} startIcon={busy ? <CircularProgress size={18} color="inherit" /> : undefined}>
          {t("startTicket.confirm")}
        </Button>
      </DialogActions>
    </Box>
  );
}
