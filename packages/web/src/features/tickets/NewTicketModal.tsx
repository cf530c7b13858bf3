import { formatPhoneNumber, isAdmin, type ContactDTO } from "@balcao/shared";
import { Autocomplete, CircularProgress, MenuItem, TextField } from "@mui/material";
import { useState, type BaseSyntheticEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { DialogForm, FormDialog } from "../../components/form/FormDialog";
import { serverFieldError } from "../../components/form/serverErrors";
import { toastError } from "../../components/toastError";
import { useDebouncedValue } from "../../hooks/useDebouncedValue";
import { useSession } from "../auth/SessionProvider";
import { useContactSearch, useCreateTicket, useQueueChoices } from "./api";

/** Contact search starts at 3 characters (spec §5, §9). */
export const CONTACT_SEARCH_MIN = 3;

interface NewTicketModalProps {
  open: boolean;
  onClose: () => void;
}

/** New ticket (spec §2 Modals, §5): search a contact from 3 characters (500 ms debounce) and pick a queue. */
export function NewTicketModal({ open, onClose }: NewTicketModalProps) {
  const { t } = useTranslation();
  return (
    <FormDialog open={open} onClose={onClose} maxWidth="xs" title={t("tickets.newTicket.title")}>
      <NewTicketForm onClose={onClose} />
    </FormDialog>
  );
}

function NewTicketForm({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const admin = isAdmin(user);
  const { queues } = useQueueChoices();
  const [input, setInput] = useState("");
  const searchParam = useDebouncedValue(input.trim().toLowerCase(), 500);
  const contacts = useContactSearch(searchParam);
  const [contact, setContact] = useState<ContactDTO | null>(null);
  const [queueId, setQueueId] = useState<number | "">(() => (queues.length === 1 ? queues[0].id : ""));
  const [queueError, setQueueError] = useState<string | undefined>();
  const [contactError, setContactError] = useState<string | undefined>();
  const create = useCreateTicket();

  const tooShort = input.trim().length < CONTACT_SEARCH_MIN;
  const noOptionsText = tooShort
    ? t("tickets.newTicket.typeMore", { count: CONTACT_SEARCH_MIN })
    : contacts.isError
      ? t("tickets.newTicket.searchUnavailable")
      : t("tickets.newTicket.noContacts");

  const submit = async (e?: BaseSyntheticEvent) => {
    e?.preventDefault();
    if (!contact) return;
    if (!admin && queueId === "") {
      setQueueError(t("tickets.newTicket.selectQueue"));
      return;
    }
    try {
      const ticket = await create.mutateAsync({ contactId: contact.id, queueId: queueId === "" ? undefined : queueId, status: "open" });
      onClose();
      navigate(`/tickets/${ticket.uuid}`);
    } catch (err) {
      const failed = serverFieldError(err, { ERR_OTHER_OPEN_TICKET: "contact", contactId: "contact", ERR_QUEUE_REQUIRED: "queue", queueId: "queue" });
      if (failed?.field === "contact") setContactError(failed.message);
      if (failed?.field === "queue") setQueueError(failed.message);
      toastError(err);
    }
  };

  return (
    <DialogForm onSubmit={submit} onCancel={onClose} busy={create.isPending} submitDisabled={!contact} submitLabel={t("tickets.newTicket.submit")}>
      <Autocomplete
        options={tooShort ? [] : (contacts.data ?? [])}
        value={contact}
        onChange={(_e, value) => {
          setContact(value);
          setContactError(undefined);
        }}
        inputValue={input}
        onInputChange={(_e, value) => setInput(value)}
        getOptionLabel={(c) => `${c.name}${c.number ? ` - ${formatPhoneNumber(c.number)}` : ""}`}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        filterOptions={(x) => x}
        loading={!tooShort && contacts.isFetching}
        noOptionsText={noOptionsText}
        renderInput={(params) => (
          <TextField
            {...params}
            label={t("tickets.newTicket.contact")}
            autoFocus
            error={!!contactError}
            helperText={contactError}
            slotProps={{
              ...params.slotProps,
              input: {
                ...params.slotProps.input,
                endAdornment: (
                  <>
                    {!tooShort && contacts.isFetching ? <CircularProgress color="inherit" size={18} /> : null}
                    {params.slotProps.input.endAdornment}
                  </>
                ),
              },
            }}
          />
        )}
      />
      <TextField
        select
        label={t("tickets.newTicket.queue")}
        value={queueId}
        onChange={(e) => {
          setQueueId(e.target.value === "" ? "" : Number(e.target.value));
          setQueueError(undefined);
        }}
        error={!!queueError}
        helperText={queueError ?? (queues.length === 0 ? t("tickets.newTicket.noQueues") : undefined)}
        fullWidth
      >
        {admin && (
          <MenuItem value="">
            <em>{t("tickets.newTicket.noQueue")}</em>
          </MenuItem>
        )}
        {queues.map((queue) => (
          <MenuItem key={queue.id} value={queue.id}>
            {queue.name}
          </MenuItem>
        ))}
      </TextField>
    </DialogForm>
  );
}
