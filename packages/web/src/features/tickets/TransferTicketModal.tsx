import type { TicketDTO, UserDTO, UserListResponse } from "@balcao/shared";
import { Autocomplete, MenuItem, TextField } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useState, type BaseSyntheticEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { api } from "../../api/client";
import { DialogForm, FormDialog } from "../../components/form/FormDialog";
import { serverFieldError } from "../../components/form/serverErrors";
import { toastError } from "../../components/toastError";
import { useDebouncedValue } from "../../hooks/useDebouncedValue";
import { useQueueChoices, useUpdateTicket } from "./api";

/** User search of the transfer modal starts at 3 characters (spec §5). */
export const USER_SEARCH_MIN = 3;

interface TransferTicketModalProps {
  open: boolean;
  ticket: TicketDTO;
  onClose: () => void;
}

/** Transfer (spec §4): a queue is required; with a user the ticket is assigned to them, else it goes back to pending. */
export function TransferTicketModal({ open, ticket, onClose }: TransferTicketModalProps) {
  const { t } = useTranslation();
  return (
    <FormDialog open={open} onClose={onClose} maxWidth="xs" title={t("tickets.transfer.title")}>
      <TransferForm ticket={ticket} onClose={onClose} />
    </FormDialog>
  );
}

function TransferForm({ ticket, onClose }: { ticket: TicketDTO; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { queues } = useQueueChoices();
  const update = useUpdateTicket();
  const [queueId, setQueueId] = useState<number | "">("");
  const [queueError, setQueueError] = useState<string | undefined>();
  const [input, setInput] = useState("");
  const [user, setUser] = useState<UserDTO | null>(null);
  const [userError, setUserError] = useState<string | undefined>();
  const searchParam = useDebouncedValue(input.trim().toLowerCase(), 500);
  const users = useQuery({
    queryKey: ["tickets", "transfer-users", searchParam],
    queryFn: ({ signal }) => api.get<UserListResponse>("/users/", { searchParam, pageNumber: 1 }, { signal }),
    enabled: searchParam.length >= USER_SEARCH_MIN,
    retry: false,
    select: (data) => (Array.isArray(data?.users) ? data.users : []),
  });
  const tooShort = input.trim().length < USER_SEARCH_MIN;
  // Users that serve the chosen queue (the server refuses others with 'Acesso não permitido').
  const options = tooShort ? [] : (users.data ?? []).filter((u) => queueId === "" || u.profile === "admin" || u.queues.some((q) => q.id === queueId));

  const submit = async (e?: BaseSyntheticEvent) => {
    e?.preventDefault();
    if (queueId === "") {
      setQueueError(t("tickets.transfer.selectQueue"));
      return;
    }
    try {
      await update.mutateAsync({ id: ticket.id, body: { queueId, ...(user ? { userId: user.id } : { userId: null }) } });
      onClose();
      navigate("/tickets");
    } catch (err) {
      const failed = serverFieldError(err, { ERR_QUEUE_REQUIRED: "queue", queueId: "queue", ERR_ACCESS_DENIED: "user", userId: "user" });
      if (failed?.field === "queue") setQueueError(failed.message);
      if (failed?.field === "user") setUserError(failed.message);
      toastError(err);
    }
  };

  return (
    <DialogForm onSubmit={submit} onCancel={onClose} busy={update.isPending} submitLabel={t("tickets.transfer.submit")}>
      <TextField
        select
        required
        label={t("tickets.transfer.queue")}
        value={queueId}
        onChange={(e) => {
          setQueueId(e.target.value === "" ? "" : Number(e.target.value));
          setQueueError(undefined);
          setUser(null);
        }}
        error={!!queueError}
        helperText={queueError}
        fullWidth
        autoFocus
      >
        {queues.map((queue) => (
          <MenuItem key={queue.id} value={queue.id}>
            {queue.name}
          </MenuItem>
        ))}
      </TextField>
      <Autocomplete
        options={options}
        value={user}
        onChange={(_e, value) => {
          setUser(value);
          setUserError(undefined);
        }}
        inputValue={input}
        onInputChange={(_e, value) => setInput(value)}
        getOptionLabel={(u) => u.name}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        filterOptions={(x) => x}
        loading={!tooShort && users.isFetching}
        noOptionsText={
          tooShort
            ? t("tickets.newTicket.typeMore", { count: USER_SEARCH_MIN })
            : users.isError
              ? t("tickets.transfer.searchUnavailable")
              : t("tickets.transfer.noUsers")
        }
        renderInput={(params) => (
          <TextField {...params} label={t("tickets.transfer.user")} error={!!userError} helperText={userError ?? t("tickets.transfer.userHelp")} />
        )}
      />
    </DialogForm>
  );
}
