import { contactListBody, type ContactListDTO } from "@balcao/shared";
import { TextField } from "@mui/material";
import { enqueueSnackbar } from "../../components/toasts";
import { useTranslation } from "react-i18next";
import { DialogForm, FormDialog, type DialogState } from "../../components/form/FormDialog";
import { useZodForm } from "../../components/form/useZodForm";
import { useSaveContactList } from "./api";

/** Add/edit a contact list (spec §5: name 2 to 50). */
export function ContactListModal({ record, ...dialog }: DialogState & { record?: ContactListDTO | null }) {
  const { t } = useTranslation();
  return (
    <FormDialog {...dialog} title={record ? t("contactLists.modal.edit") : t("contactLists.modal.add")}>
      <ContactListForm key={record?.id ?? "new"} record={record ?? null} onClose={dialog.onClose} />
    </FormDialog>
  );
}

function ContactListForm({ record, onClose }: { record: ContactListDTO | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveContactList(record?.id);
  const form = useZodForm(contactListBody, { defaultValues: { name: record?.name ?? "" } });
  const onSubmit = form.submit(async (values) => {
    await save.mutateAsync(values);
    enqueueSnackbar(record ? t("contactLists.toasts.updated") : t("contactLists.toasts.created"), { variant: "success" });
    onClose();
  });
  return (
    <DialogForm onSubmit={onSubmit} onCancel={onClose} busy={form.busy} submitLabel={record ? t("common.save") : t("common.add")}>
      <TextField {...form.field("name")} label={t("contactLists.modal.name")} autoFocus fullWidth />
    </DialogForm>
  );
}
