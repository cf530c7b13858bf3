import { quickMessageBody, type QuickMessageDTO } from "@balcao/shared";
import { InputAdornment, TextField } from "@mui/material";
import { enqueueSnackbar } from "../../components/toasts";
import type { KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { DialogForm, FormDialog, type DialogState } from "../../components/form/FormDialog";
import { useZodForm } from "../../components/form/useZodForm";
import { useSaveQuickMessage } from "./api";

/** Add/edit a quick message (spec §5): shortcode 3–50, message 3–1000, both required. */
export function QuickMessageModal({ quickMessage, ...dialog }: DialogState & { quickMessage?: QuickMessageDTO | null }) {
  const { t } = useTranslation();
  const title = quickMessage ? t("quickMessageModal.title.edit") : t("quickMessageModal.title.add");
  return (
    <FormDialog {...dialog} title={title}>
      <QuickMessageForm key={quickMessage?.id ?? "new"} quickMessage={quickMessage ?? null} onClose={dialog.onClose} />
    </FormDialog>
  );
}

function QuickMessageForm({ quickMessage, onClose }: { quickMessage: QuickMessageDTO | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveQuickMessage(quickMessage?.id);
  const form = useZodForm(quickMessageBody, { defaultValues: { shortcode: quickMessage?.shortcode ?? "", message: quickMessage?.message ?? "" } });

  const onSubmit = form.submit(
    async (values) => {
      await save.mutateAsync({ shortcode: values.shortcode, message: values.message });
      enqueueSnackbar(quickMessage ? t("quickMessages.toasts.updated") : t("quickMessages.toasts.added"), { variant: "success" });
      onClose();
    },
    { codeFields: { ERR_DUPLICATED_SHORTCODE: "shortcode" } },
  );

  /** The message is multi-line: Enter adds a line, Ctrl/⌘+Enter saves. */
  const onMessageKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void onSubmit();
    }
  };

  return (
    <DialogForm
      onSubmit={onSubmit}
      onCancel={onClose}
      busy={form.busy}
      submitLabel={quickMessage ? t("quickMessageModal.buttons.okEdit") : t("quickMessageModal.buttons.okAdd")}
    >
      <TextField
        {...form.field("shortcode", t("quickMessageModal.form.shortcodeHint"))}
        label={t("quickMessageModal.form.shortcode")}
        autoFocus
        fullWidth
        autoComplete="off"
        slotProps={{ input: { startAdornment: <InputAdornment position="start">/</InputAdornment> } }}
      />
      <TextField
        {...form.field("message", t("quickMessageModal.form.messageHint"))}
        label={t("quickMessageModal.form.message")}
        fullWidth
        multiline
        minRows={4}
        maxRows={12}
        onKeyDown={onMessageKeyDown}
      />
    </DialogForm>
  );
}
