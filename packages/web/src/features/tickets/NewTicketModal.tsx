import { isAdmin, type ContactDTO } from "@balcao/shared";
import { Autocomplete, Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, TextField } from "@mui/material";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
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
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="new-ticket-title">
      <DialogTitle id="new-ticket-title">{t("tickets.newTicket.title")}</DialogTitle>
      {open && <NewTicketForm onClose={onClose} />}
    </Dialog>
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
  const create = useCreateTicket();

  const tooShort = input.trim().length < CONTACT_SEARCH_MIN;
  const noOptionsText = tooShort
    ? t("tickets.newTicket.typeMore", { count: CONTACT_SEARCH_MIN })
    : contacts.isError
      ? t("tickets.newTicket.searchUnavailable")
      : t("tickets.newTicket.noContacts");

  const submit = async (e: FormEvent) => {
    e.preventDefault();
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
      toastError(err);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={(e) => void submit(e)}>
      <DialogContent dividers sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
        <Autocomplete
          options={tooShort ? [] : (contacts.data ?? [])}
          value={contact}
          onChange={(_e, value) => setContact(value)}
          inputValue={input}
          onInputChange={(_e, value) => setInput(value)}
          getOptionLabel={(c) => `${c.name}${c.number ? ` - ${c.number}` : ""}`}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          filterOptions={(x) => x}
          loading={!tooShort && contacts.isFetching}
          noOptionsText={noOptionsText}
          renderInput={(params) => (
            <TextField
              {...params}
              label={t("tickets.newTicket.contact")}
              autoFocus
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
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit" disabled={create.isPending}>
          {t("common.cancel")}
        </Button>
        <Button type="submit" variant="contained" disabled={!contact || create.isPending} startIcon={create.isPending ? <CircularProgress size={18} color="inherit" /> : undefined}>
          {t("tickets.newTicket.submit")}
        </Button>
      </DialogActions>
    </Box>
  );
}
