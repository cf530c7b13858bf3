import { isAdmin, type ContactDTO } from "@balcao/shared";
import { Box, DialogContentText, MenuItem, TextField } from "@mui/material";
import { useState, type BaseSyntheticEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { DialogForm, FormDialog } from "../../components/form/FormDialog";
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
    <FormDialog open={!!contact} onClose={onClose} title={t("startTicket.title")} maxWidth="xs">
      {contact && <StartTicketForm key={contact.id} contact={contact} onClose={onClose} />}
    </FormDialog>
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

  const submit = async (event?: BaseSyntheticEvent) => {
    event?.preventDefault();
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

  return (
    <DialogForm onSubmit={submit} onCancel={onClose} busy={start.isPending} submitDisabled={queues.isPending} submitLabel={t("startTicket.confirm")}>
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
        helperText={
          error ?? (queues.isSuccess && options.length === 0 ? t("startTicket.noQueues") : queues.isError ? errorText(queues.error) : undefined)
        }
        disabled={queues.isPending}
      >
        {admin && <MenuItem value={NO_QUEUE}>{t("startTicket.noQueue")}</MenuItem>}
        {options.map((queue) => (
          <MenuItem key={queue.id} value={String(queue.id)}>
            <Box
              component="span"
              aria-hidden
              sx={{ width: 12, height: 12, borderRadius: "50%", bgcolor: queue.color, display: "inline-block", mr: 1 }}
            />
            {queue.name}
          </MenuItem>
        ))}
      </TextField>
    </DialogForm>
  );
}
