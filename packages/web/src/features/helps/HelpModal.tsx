import { helpCreateBody, type HelpDTO } from "@balcao/shared";
import { TextField } from "@mui/material";
import { enqueueSnackbar } from "../../components/toasts";
import { useTranslation } from "react-i18next";
import { DialogForm, FormDialog } from "../../components/form/FormDialog";
import { useZodForm } from "../../components/form/useZodForm";
import { translateValidation } from "../../components/toastError";
import { withSpecFailure } from "../companies/specFailure";
import { useSaveHelp } from "./api";

interface HelpModalProps {
  open: boolean;
  onClose: () => void;
  help: HelpDTO | null;
}

/** Add/edit a help video (super user): title, description and the YouTube video code (a pasted link works too). */
export function HelpModal({ open, onClose, help }: HelpModalProps) {
  const { t } = useTranslation();
  return (
    <FormDialog open={open} onClose={onClose} title={help ? t("helps.modal.edit") : t("helps.modal.add")}>
      <HelpForm key={help?.id ?? "new"} help={help} onClose={onClose} />
    </FormDialog>
  );
}

function HelpForm({ help, onClose }: { help: HelpDTO | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveHelp(help?.id);
  const form = useZodForm(helpCreateBody, {
    defaultValues: { title: help?.title ?? "", description: help?.description ?? "", video: help?.video ?? "" },
    translate: (message) => (message === "Invalid video" ? t("helps.validation.video") : translateValidation(message)),
  });

  const onSubmit = form.submit(async (values) => {
    await withSpecFailure(() => save.mutateAsync(values), t("helps.toasts.saveFailed"));
    enqueueSnackbar(t("helps.toasts.saved"), { variant: "success" });
    onClose();
  });

  return (
    <DialogForm onSubmit={onSubmit} onCancel={onClose} busy={form.busy} submitLabel={t("helps.modal.save")}>
      <TextField {...form.field("title")} label={t("helps.form.title")} autoFocus fullWidth />
      <TextField {...form.field("video", t("helps.form.videoHint"))} label={t("helps.form.video")} fullWidth />
      <TextField {...form.field("description")} label={t("helps.form.description")} multiline minRows={3} maxRows={8} fullWidth />
    </DialogForm>
  );
}
