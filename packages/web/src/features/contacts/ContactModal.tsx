import { contactCreateBody, contactUpdateBody, INVALID_NUMBER, type ContactDTO } from "@balcao/shared";
import { Box, Button, DialogActions, IconButton, TextField, Tooltip, Typography } from "@mui/material";
import AddCircleOutline from "@mui/icons-material/AddCircleOutlined";
import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import { enqueueSnackbar } from "../../components/toasts";
import { useFieldArray } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { ZodType, input, output } from "zod";
import { EmptyState } from "../../components/EmptyState";
import { DialogForm, FormDialog } from "../../components/form/FormDialog";
import { useZodForm } from "../../components/form/useZodForm";
import { LoadingState } from "../../components/LoadingState";
import { errorText, translateValidation } from "../../components/toastError";
import { useContact, useSaveContact } from "./api";

interface ContactModalProps {
  open: boolean;
  onClose: () => void;
  /** The contact to edit (its extra info is loaded by id); absent to add one. */
  contact?: ContactDTO | null;
  /** Prefills a new contact (e.g. the number typed in a search). */
  initialValues?: { name?: string; number?: string; email?: string };
  onSaved?: (contact: ContactDTO) => void;
}

/** Adding validates with the create schema, editing with the update one. */
type ContactFormSchema = ZodType<output<typeof contactUpdateBody>, input<typeof contactUpdateBody>>;

/** Server answers whose text belongs under the number field. */
const NUMBER_ERRORS = {
  ERR_DUPLICATED_CONTACT: "number",
  ERR_WAPP_INVALID_CONTACT: "number",
  ERR_WAPP_CHECK_CONTACT: "number",
  [INVALID_NUMBER]: "number",
} as const;

/** Add/edit a contact (spec §2 Modals, §5): name, number, email and extra info rows. */
export function ContactModal({ open, onClose, contact, initialValues, onSaved }: ContactModalProps) {
  const { t } = useTranslation();
  return (
    <FormDialog open={open} onClose={onClose} title={contact ? t("contactModal.title.edit") : t("contactModal.title.add")}>
      {contact ? (
        <EditContact key={contact.id} contact={contact} onClose={onClose} onSaved={onSaved} />
      ) : (
        <ContactForm contact={null} initialValues={initialValues} onClose={onClose} onSaved={onSaved} />
      )}
    </FormDialog>
  );
}

function EditContact({ contact, onClose, onSaved }: { contact: ContactDTO; onClose: () => void; onSaved?: (c: ContactDTO) => void }) {
  const { t } = useTranslation();
  const detail = useContact(contact.id);
  if (detail.isPending) return <LoadingState />;
  if (detail.isError) {
    return (
      <>
        <EmptyState title={t("contactModal.loadFailed")} description={errorText(detail.error)} />
        <DialogActions>
          <Button onClick={onClose} color="inherit">
            {t("common.cancel")}
          </Button>
        </DialogActions>
      </>
    );
  }
  return <ContactForm contact={detail.data} onClose={onClose} onSaved={onSaved} />;
}

interface ContactFormProps {
  contact: ContactDTO | null;
  initialValues?: ContactModalProps["initialValues"];
  onClose: () => void;
  onSaved?: (c: ContactDTO) => void;
}

function ContactForm({ contact, initialValues, onClose, onSaved }: ContactFormProps) {
  const { t } = useTranslation();
  const save = useSaveContact(contact?.id);
  /** A contact known only by a WhatsApp id has no number: it may stay without one. */
  const numberOptional = !!contact && !contact.number;

  const schema: ContactFormSchema = contact ? contactUpdateBody : contactCreateBody;
  const form = useZodForm(schema, {
    defaultValues: {
      name: contact?.name ?? initialValues?.name ?? "",
      number: contact?.number ?? initialValues?.number ?? "",
      email: contact?.email ?? initialValues?.email ?? "",
      extraInfo: (contact?.extraInfo ?? []).map(({ name, value }) => ({ name, value })),
    },
    prepare: (values) => (numberOptional && !values.number?.trim() ? { ...values, number: undefined } : values),
    translate: (message) => (message === INVALID_NUMBER ? t("contactModal.errors.invalidNumber") : translateValidation(message)),
  });
  const rows = useFieldArray({ control: form.control, name: "extraInfo" });

  const onSubmit = form.submit(
    async (values) => {
      const saved = await save.mutateAsync({
        name: values.name,
        number: values.number,
        email: values.email ?? "",
        extraInfo: (values.extraInfo ?? []).map(({ name, value }) => ({ name, value: value ?? "" })),
      });
      enqueueSnackbar(t("contactModal.success"), { variant: "success" });
      onSaved?.(saved);
      onClose();
    },
    { codeFields: NUMBER_ERRORS },
  );

  return (
    <DialogForm
      onSubmit={onSubmit}
      onCancel={onClose}
      busy={form.busy}
      submitLabel={contact ? t("contactModal.buttons.okEdit") : t("contactModal.buttons.okAdd")}
    >
      <Typography variant="subtitle2" color="primary">
        {t("contactModal.form.mainInfo")}
      </Typography>
      <TextField {...form.field("name")} label={t("contactModal.form.name")} autoFocus fullWidth />
      <TextField
        {...form.field("number", t("contactModal.form.numberHint"))}
        label={t("contactModal.form.number")}
        type="tel"
        autoComplete="off"
        fullWidth
      />
      <TextField {...form.field("email")} label={t("contactModal.form.email")} type="email" autoComplete="off" fullWidth />

      <Typography variant="subtitle2" color="primary" sx={{ mt: 1 }} id="contact-extra-info">
        {t("contactModal.form.extraInfo")}
      </Typography>
      <Box role="list" aria-labelledby="contact-extra-info" sx={{ display: "flex", flexDirection: "column", gap: 1.5 }}>
        {rows.fields.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            {t("contactModal.form.noExtraInfo")}
          </Typography>
        )}
        {rows.fields.map((field, index) => (
          <Box key={field.id} role="listitem" sx={{ display: "flex", gap: 1, alignItems: "flex-start" }} data-testid="extra-info-row">
            <TextField {...form.field(`extraInfo.${index}.name`)} label={t("contactModal.form.extraName")} size="small" fullWidth />
            <TextField {...form.field(`extraInfo.${index}.value`)} label={t("contactModal.form.extraValue")} size="small" fullWidth />
            <Tooltip title={t("common.delete")}>
              <IconButton
                aria-label={t("contactModal.form.removeExtraInfo", { index: index + 1 })}
                onClick={() => rows.remove(index)}
                sx={{ mt: 0.25 }}
              >
                <DeleteOutline fontSize="small" />
              </IconButton>
            </Tooltip>
          </Box>
        ))}
      </Box>
      <Box>
        <Button startIcon={<AddCircleOutline />} onClick={() => rows.append({ name: "", value: "" })}>
          {t("contactModal.form.addExtraInfo")}
        </Button>
      </Box>
    </DialogForm>
  );
}
