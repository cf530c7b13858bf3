import { contactCreateBody, contactUpdateBody, INVALID_NUMBER, type ContactCreateBody, type ContactDTO } from "@balcao/shared";
import { zodResolver } from "@hookform/resolvers/zod";
import { Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, TextField, Tooltip, Typography } from "@mui/material";
import AddCircleOutline from "@mui/icons-material/AddCircleOutlined";
import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import { enqueueSnackbar } from "notistack";
import { useFieldArray, useForm, type FieldPath, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../api/client";
import { EmptyState } from "../../components/EmptyState";
import { LoadingState } from "../../components/LoadingState";
import { errorText, toastError, translateValidation } from "../../components/toastError";
import { useContact, useSaveContact } from "./api";

interface ContactModalProps {
  open: boolean;
  onClose: () => void;
  /** The contact to edit (its extra info is loaded by id); absent to add one. */
  contact?: ContactDTO | null;
  /** Prefills a new contact (e.g. the number typed in a search). */
  initialValues?: Partial<Pick<ContactFormValues, "name" | "number" | "email">>;
  onSaved?: (contact: ContactDTO) => void;
}

export interface ContactFormValues {
  name: string;
  number: string;
  email: string;
  extraInfo: { name: string; value: string }[];
}

/** Server answers whose text belongs under the number field. */
const NUMBER_ERRORS = new Set(["ERR_DUPLICATED_CONTACT", "ERR_WAPP_INVALID_CONTACT", "ERR_WAPP_CHECK_CONTACT", INVALID_NUMBER]);

/** Add/edit a contact (spec §2 Modals, §5): name, number, email and extra info rows. */
export function ContactModal({ open, onClose, contact, initialValues, onSaved }: ContactModalProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth scroll="paper" aria-labelledby="contact-modal-title">
      <DialogTitle id="contact-modal-title">{contact ? t("contactModal.title.edit") : t("contactModal.title.add")}</DialogTitle>
      {open && (contact ? <EditContact key={contact.id} contact={contact} onClose={onClose} onSaved={onSaved} /> : <ContactForm contact={null} initialValues={initialValues} onClose={onClose} onSaved={onSaved} />)}
    </Dialog>
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

  const base = zodResolver(contact ? contactUpdateBody : contactCreateBody) as unknown as Resolver<ContactFormValues>;
  const resolver: Resolver<ContactFormValues> = (values, context, options) =>
    base(numberOptional && !values.number.trim() ? ({ ...values, number: undefined } as unknown as ContactFormValues) : values, context, options);

  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ContactFormValues>({
    resolver,
    defaultValues: {
      name: contact?.name ?? initialValues?.name ?? "",
      number: contact?.number ?? initialValues?.number ?? "",
      email: contact?.email ?? initialValues?.email ?? "",
      extraInfo: (contact?.extraInfo ?? []).map(({ name, value }) => ({ name, value })),
    },
  });
  const rows = useFieldArray({ control, name: "extraInfo" });

  const fieldText = (message: string | undefined) => (message === INVALID_NUMBER ? t("contactModal.errors.invalidNumber") : translateValidation(message));

  const onSubmit = handleSubmit(async (values) => {
    const body: ContactCreateBody = {
      name: values.name,
      number: values.number,
      email: values.email ?? "",
      extraInfo: (values.extraInfo ?? []).map(({ name, value }) => ({ name, value: value ?? "" })),
    };
    if (numberOptional && !body.number) delete (body as Partial<ContactCreateBody>).number;
    try {
      const saved = await save.mutateAsync(body);
      enqueueSnackbar(t("contactModal.success"), { variant: "success" });
      onSaved?.(saved);
      onClose();
    } catch (err) {
      if (err instanceof ApiError) {
        for (const issue of err.body.issues ?? []) {
          if (issue.path) setError(issue.path as FieldPath<ContactFormValues>, { type: "server", message: issue.message });
        }
        if (NUMBER_ERRORS.has(err.code)) setError("number", { type: "server", message: errorText(err) }, { shouldFocus: true });
      }
      toastError(err);
    }
  });

  const busy = isSubmitting || save.isPending;

  return (
    <Box component="form" noValidate onSubmit={onSubmit} sx={{ display: "contents" }}>
      <DialogContent dividers sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
        <Typography variant="subtitle2" color="primary">
          {t("contactModal.form.mainInfo")}
        </Typography>
        <TextField {...register("name")} label={t("contactModal.form.name")} autoFocus fullWidth error={!!errors.name} helperText={fieldText(errors.name?.message)} />
        <TextField
          {...register("number")}
          label={t("contactModal.form.number")}
          type="tel"
          autoComplete="off"
          fullWidth
          error={!!errors.number}
          helperText={fieldText(errors.number?.message) ?? t("contactModal.form.numberHint")}
        />
        <TextField {...register("email")} label={t("contactModal.form.email")} type="email" autoComplete="off" fullWidth error={!!errors.email} helperText={fieldText(errors.email?.message)} />

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
              <TextField
                {...register(`extraInfo.${index}.name` as const)}
                label={t("contactModal.form.extraName")}
                size="small"
                fullWidth
                error={!!errors.extraInfo?.[index]?.name}
                helperText={fieldText(errors.extraInfo?.[index]?.name?.message)}
              />
              <TextField
                {...register(`extraInfo.${index}.value` as const)}
                label={t("contactModal.form.extraValue")}
                size="small"
                fullWidth
                error={!!errors.extraInfo?.[index]?.value}
                helperText={fieldText(errors.extraInfo?.[index]?.value?.message)}
              />
              <Tooltip title={t("common.delete")}>
                <IconButton aria-label={t("contactModal.form.removeExtraInfo", { index: index + 1 })} onClick={() => rows.remove(index)} sx={{ mt: 0.25 }}>
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
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit" disabled={busy}>
          {t("common.cancel")}
        </Button>
        <Button type="submit" variant="contained" disabled={busy} startIcon={busy ? <CircularProgress size={18} color="inherit" /> : undefined}>
          {contact ? t("contactModal.buttons.okEdit") : t("contactModal.buttons.okAdd")}
        </Button>
      </DialogActions>
    </Box>
  );
}
