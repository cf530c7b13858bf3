import { quickMessageBody, type QuickMessageBody, type QuickMessageDTO } from "@balcao/shared";
import { zodResolver } from "@hookform/resolvers/zod";
import { Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, InputAdornment, TextField } from "@mui/material";
import { enqueueSnackbar } from "notistack";
import type { KeyboardEvent } from "react";
import { useForm, type FieldPath, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../api/client";
import { toastError, translateValidation } from "../../components/toastError";
import { useSaveQuickMessage } from "./api";

interface QuickMessageModalProps {
  open: boolean;
  onClose: () => void;
  /** The quick message to edit; absent to add one. */
  quickMessage?: QuickMessageDTO | null;
}

/** Add/edit a quick message (spec §5): shortcode 3–50, message 3–1000, both required. */
export function QuickMessageModal({ open, onClose, quickMessage }: QuickMessageModalProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="quick-message-modal-title">
      <DialogTitle id="quick-message-modal-title">{quickMessage ? t("quickMessageModal.title.edit") : t("quickMessageModal.title.add")}</DialogTitle>
      {open && <QuickMessageForm key={quickMessage?.id ?? "new"} quickMessage={quickMessage ?? null} onClose={onClose} />}
    </Dialog>
  );
}

function QuickMessageForm({ quickMessage, onClose }: { quickMessage: QuickMessageDTO | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveQuickMessage(quickMessage?.id);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<QuickMessageBody>({
    resolver: zodResolver(quickMessageBody) as unknown as Resolver<QuickMessageBody>,
    defaultValues: { shortcode: quickMessage?.shortcode ?? "", message: quickMessage?.message ?? "" },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await save.mutateAsync({ shortcode: values.shortcode, message: values.message });
      enqueueSnackbar(quickMessage ? t("quickMessages.toasts.updated") : t("quickMessages.toasts.added"), { variant: "success" });
      onClose();
    } catch (err) {
      if (err instanceof ApiError) {
        for (const issue of err.body.issues ?? []) {
          if (issue.path) setError(issue.path as FieldPath<QuickMessageBody>, { type: "server", message: issue.message });
        }
        if (err.code === "ERR_DUPLICATED_SHORTCODE") setError("shortcode", { type: "server", message: t("backendErrors.ERR_DUPLICATED_SHORTCODE") }, { shouldFocus: true });
      }
      toastError(err);
    }
  });

  /** The message is multi-line: Enter adds a line, Ctrl/⌘+Enter saves. */
  const onMessageKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void onSubmit();
    }
  };

  const busy = isSubmitting || save.isPending;
  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <DialogContent dividers sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
        <TextField
          {...register("shortcode")}
          label={t("quickMessageModal.form.shortcode")}
          autoFocus
          fullWidth
          autoComplete="off"
          error={!!errors.shortcode}
          helperText={translateValidation(errors.shortcode?.message) ?? t("quickMessageModal.form.shortcodeHint")}
          slotProps={{ input: { startAdornment: <InputAdornment position="start">/</InputAdornment> } }}
        />
        <TextField
          {...register("message")}
          label={t("quickMessageModal.form.message")}
          fullWidth
          multiline
          minRows={4}
          maxRows={12}
          onKeyDown={onMessageKeyDown}
          error={!!errors.message}
          helperText={translateValidation(errors.message?.message) ?? t("quickMessageModal.form.messageHint")}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit" disabled={busy}>
          {t("common.cancel")}
        </Button>
        <Button type="submit" variant="contained" disabled={busy} startIcon={busy ? <CircularProgress size={18} color="inherit" /> : undefined}>
          {quickMessage ? t("quickMessageModal.buttons.okEdit") : t("quickMessageModal.buttons.okAdd")}
        </Button>
      </DialogActions>
    </Box>
  );
}
