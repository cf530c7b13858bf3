import { contactListItemFields, type ContactListItemDTO } from "@balcao/shared";
import { TextField } from "@mui/material";
import { enqueueSnackbar } from "../../components/toasts";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { DialogForm, FormDialog, type DialogState } from "../../components/form/FormDialog";
import { useZodForm } from "../../components/form/useZodForm";
import { useSaveContactListItem } from "./api";

/** Spec §5: name 2 to 50; number 8 to 50; email valid when given. */
const itemForm = z.object(contactListItemFields);

/** Add/edit a contact of a list. */
export function ContactListItemModal({
  record,
  contactListId,
  ...dialog
}: DialogState & { record?: ContactListItemDTO | null; contactListId: number }) {
  const { t } = useTranslation();
  return (
    <FormDialog {...dialog} title={record ? t("contactListItems.modal.edit") : t("contactListItems.modal.add")}>
      <ItemForm key={record?.id ?? "new"} record={record ?? null} contactListId={contactListId} onClose={dialog.onClose} />
    </FormDialog>
  );
}

function ItemForm({ record, contactListId, onClose }: { record: ContactListItemDTO | null; contactListId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveContactListItem(record?.id);
  const form = useZodForm(itemForm, {
    defaultValues: { name: record?.name ?? "", number: record?.number ?? "", email: record?.email ?? "" },
  });
  const onSubmit = form.submit(
    async (values) => {
      await save.mutateAsync(record ? values : { ...values, contactListId });
      enqueueSnackbar(record ? t("contactListItems.toasts.updated") : t("contactListItems.toasts.created"), { variant: "success" });
      onClose();
    },
    { codeFields: { ERR_DUPLICATED_CONTACT_LIST_ITEM: "number" } },
  );
  return (
    <DialogForm onSubmit={onSubmit} onCancel={onClose} busy={form.busy} submitLabel={record ? t("common.save") : t("common.add")}>
      <TextField {...form.field("name")} label={t("contactListItems.modal.name")} autoFocus fullWidth />
      <TextField {...form.field("number", t("contactListItems.modal.numberHint"))} label={t("contactListItems.modal.number")} fullWidth />
      <TextField {...form.field("email")} label={t("contactListItems.modal.email")} type="email" fullWidth />
    </DialogForm>
  );
}
