import { isAdmin, ticketNoteCreateBody, type TicketNoteDTO } from "@balcao/shared";
import { Box, Button, CircularProgress, IconButton, List, ListItem, ListItemText, TextField, Tooltip, Typography } from "@mui/material";
import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import { formatDateTime } from "../../app/format";
import { enqueueSnackbar } from "../../components/toasts";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { EmptyState } from "../../components/EmptyState";
import { LoadingState } from "../../components/LoadingState";
import { toastError, translateValidation } from "../../components/toastError";
import { useSession } from "../auth/SessionProvider";
import { useAddTicketNote, useDeleteTicketNote, useTicketNotes } from "./api";

/** Ticket notes of the contact drawer (spec §2): list, add (at least 2 characters), delete with confirmation. */
export function TicketNotes({ ticketId, contactId }: { ticketId: number; contactId: number }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const notes = useTicketNotes(ticketId, contactId);
  const add = useAddTicketNote(ticketId, contactId);
  const remove = useDeleteTicketNote(ticketId, contactId);
  const [note, setNote] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [toDelete, setToDelete] = useState<TicketNoteDTO | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = ticketNoteCreateBody.safeParse({ note, ticketId, contactId });
    if (!parsed.success) {
      setError(translateValidation(parsed.error.issues[0]?.message));
      return;
    }
    setError(undefined);
    try {
      await add.mutateAsync(parsed.data);
      setNote("");
      enqueueSnackbar(t("ticketNotes.toasts.added"), { variant: "success", autoHideDuration: 2000 });
    } catch (err) {
      toastError(err);
    }
  };

  const confirmDelete = async () => {
    if (!toDelete) return;
    try {
      await remove.mutateAsync(toDelete.id);
      enqueueSnackbar(t("ticketNotes.toasts.deleted"), { variant: "success", autoHideDuration: 2000 });
    } catch (err) {
      toastError(err);
    }
    setToDelete(null);
  };

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 1 }}>
      <Typography variant="subtitle2" component="h3">
        {t("ticketNotes.title")}
      </Typography>
      <Box component="form" noValidate onSubmit={(e) => void submit(e)} sx={{ display: "flex", flexDirection: "column", gap: 1 }}>
        <TextField
          label={t("ticketNotes.form.note")}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          multiline
          minRows={2}
          maxRows={6}
          size="small"
          error={!!error}
          helperText={error}
        />
        <Button
          type="submit"
          variant="contained"
          size="small"
          disabled={add.isPending}
          startIcon={add.isPending ? <CircularProgress size={16} color="inherit" /> : undefined}
          sx={{ alignSelf: "flex-end" }}
        >
          {t("ticketNotes.buttons.add")}
        </Button>
      </Box>
      {notes.isLoading && <LoadingState />}
      {notes.isError && (
        <Typography variant="body2" color="error">
          {t("errors.listFailed")}
        </Typography>
      )}
      {notes.isSuccess && notes.data.length === 0 && <EmptyState title={t("ticketNotes.empty")} icon={<span />} />}
      <List dense disablePadding aria-label={t("ticketNotes.title")}>
        {(notes.data ?? []).map((n) => (
          <ListItem
            key={n.id}
            divider
            disableGutters
            secondaryAction={
              (isAdmin(user) || n.userId === user?.id) && (
                <Tooltip title={t("common.delete")}>
                  <IconButton edge="end" size="small" aria-label={t("ticketNotes.buttons.delete")} onClick={() => setToDelete(n)}>
                    <DeleteOutline fontSize="small" />
                  </IconButton>
                </Tooltip>
              )
            }
          >
            <ListItemText
              primary={n.note}
              secondary={`${n.user?.name ?? ""} · ${formatDateTime(n.createdAt)}`}
              slotProps={{ primary: { sx: { whiteSpace: "pre-wrap", wordBreak: "break-word" } } }}
            />
          </ListItem>
        ))}
      </List>
      <ConfirmationDialog
        open={!!toDelete}
        title={t("ticketNotes.confirmDelete")}
        onClose={() => setToDelete(null)}
        onConfirm={() => void confirmDelete()}
        confirmLabel={t("common.delete")}
        loading={remove.isPending}
      />
    </Box>
  );
}
