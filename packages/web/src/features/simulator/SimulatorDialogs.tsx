import { simulatorPhoneField } from "@balcao/shared";
import {
  Box,
  Button,
  Checkbox,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  TextField,
  Typography,
} from "@mui/material";
import { useState, type FormEvent } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { DialogForm, FormDialog } from "../../components/form/FormDialog";
import type { MediaKind } from "./simulatorMessages";

interface DialogProps<T> {
  open: boolean;
  busy: boolean;
  onClose: () => void;
  onSubmit: (values: T) => Promise<void>;
}

export interface LocationValues {
  latitude: number;
  longitude: number;
  description: string;
}

/** The customer shares a location: latitude, longitude and an optional description. */
export function LocationDialog({ open, busy, onClose, onSubmit }: DialogProps<LocationValues>) {
  const { t } = useTranslation();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<{ latitude: string; longitude: string; description: string }>({
    defaultValues: { latitude: "-23.5505", longitude: "-46.6333", description: "" },
  });
  const coordinate = (min: number, max: number, message: string) => ({
    required: t("simulator.validation.required"),
    validate: (value: string) => {
      const n = Number(value.replace(",", "."));
      return (value.trim() !== "" && Number.isFinite(n) && n >= min && n <= max) || message;
    },
  });
  const submit = handleSubmit((values) =>
    onSubmit({
      latitude: Number(values.latitude.replace(",", ".")),
      longitude: Number(values.longitude.replace(",", ".")),
      description: values.description.trim(),
    }),
  );
  return (
    <FormDialog open={open} onClose={onClose} maxWidth="xs" title={t("simulator.location.title")}>
      <DialogForm onSubmit={submit} onCancel={onClose} busy={busy} submitLabel={t("simulator.chat.send")}>
        <TextField
          {...register("latitude", coordinate(-90, 90, t("simulator.validation.latitude")))}
          label={t("simulator.location.latitude")}
          autoFocus
          required
          error={!!errors.latitude}
          helperText={errors.latitude?.message}
          slotProps={{ htmlInput: { inputMode: "decimal" } }}
        />
        <TextField
          {...register("longitude", coordinate(-180, 180, t("simulator.validation.longitude")))}
          label={t("simulator.location.longitude")}
          required
          error={!!errors.longitude}
          helperText={errors.longitude?.message}
          slotProps={{ htmlInput: { inputMode: "decimal" } }}
        />
        <TextField
          {...register("description", { maxLength: { value: 500, message: t("simulator.validation.tooLong") } })}
          label={t("simulator.location.description")}
          error={!!errors.description}
          helperText={errors.description?.message}
        />
      </DialogForm>
    </FormDialog>
  );
}

export interface VcardValues {
  contactName: string;
  contactNumber: string;
}

/** The customer shares a contact card (name + number; the server builds a vCard 3.0 with waid). */
export function VcardDialog({ open, busy, onClose, onSubmit }: DialogProps<VcardValues>) {
  const { t } = useTranslation();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<VcardValues>({ defaultValues: { contactName: "", contactNumber: "" } });
  const submit = handleSubmit((values) =>
    onSubmit({ contactName: values.contactName.trim(), contactNumber: simulatorPhoneField.parse(values.contactNumber) }),
  );
  return (
    <FormDialog open={open} onClose={onClose} maxWidth="xs" title={t("simulator.vcard.title")}>
      <DialogForm onSubmit={submit} onCancel={onClose} busy={busy} submitLabel={t("simulator.chat.send")}>
        <TextField
          {...register("contactName", {
            validate: (v) => (v.trim() ? true : t("simulator.validation.required")),
            maxLength: { value: 100, message: t("simulator.validation.tooLong") },
          })}
          label={t("simulator.vcard.name")}
          autoFocus
          required
          error={!!errors.contactName}
          helperText={errors.contactName?.message}
        />
        <TextField
          {...register("contactNumber", { validate: (v) => simulatorPhoneField.safeParse(v).success || t("simulator.validation.invalidNumber") })}
          label={t("simulator.vcard.number")}
          required
          error={!!errors.contactNumber}
          helperText={errors.contactNumber?.message ?? t("simulator.phones.numberHelp")}
          slotProps={{ htmlInput: { inputMode: "tel" } }}
        />
      </DialogForm>
    </FormDialog>
  );
}

export interface PollValues {
  question: string;
  options: string[];
}

/** The customer sends a poll: a question and 2 to 12 options, one per line (shown to the company as text). */
export function PollDialog({ open, busy, onClose, onSubmit }: DialogProps<PollValues>) {
  const { t } = useTranslation();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<{ question: string; options: string }>({ defaultValues: { question: "", options: "" } });
  const lines = (text: string) =>
    text
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean);
  const submit = handleSubmit((values) => onSubmit({ question: values.question.trim(), options: lines(values.options) }));
  return (
    <FormDialog open={open} onClose={onClose} maxWidth="xs" title={t("simulator.poll.title")}>
      <DialogForm onSubmit={submit} onCancel={onClose} busy={busy} submitLabel={t("simulator.chat.send")}>
        <TextField
          {...register("question", {
            validate: (v) => (v.trim() ? true : t("simulator.validation.required")),
            maxLength: { value: 255, message: t("simulator.validation.tooLong") },
          })}
          label={t("simulator.poll.question")}
          autoFocus
          required
          error={!!errors.question}
          helperText={errors.question?.message}
        />
        <TextField
          {...register("options", {
            validate: (v) => {
              const options = lines(v);
              if (options.length < 2 || options.length > 12) return t("simulator.poll.optionsInvalid");
              return options.every((o) => o.length <= 100) || t("simulator.validation.tooLong");
            },
          })}
          label={t("simulator.poll.options")}
          multiline
          minRows={3}
          required
          error={!!errors.options}
          helperText={errors.options?.message}
        />
      </DialogForm>
    </FormDialog>
  );
}

export interface PendingFile {
  kind: MediaKind;
  /** Null = the server's built-in sample of that kind. */
  file: File | null;
}

/** Confirms a file (or a built-in sample) before the customer sends it: caption, or voice note for audio. */
export function AttachmentDialog({
  pending,
  busy,
  onClose,
  onSubmit,
}: {
  pending: PendingFile | null;
  busy: boolean;
  onClose: () => void;
  onSubmit: (values: { caption: string; voice: boolean; viewOnce: boolean }) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [caption, setCaption] = useState("");
  const [voice, setVoice] = useState(true);
  const [viewOnce, setViewOnce] = useState(false);
  const kind = pending?.kind ?? "document";
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void onSubmit({ caption: caption.trim(), voice, viewOnce: viewOnce && (kind === "image" || kind === "video") }).then(() => {
      setCaption("");
      setViewOnce(false);
    });
  };
  return (
    <Dialog open={!!pending} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="simulator-attachment-title">
      <DialogTitle id="simulator-attachment-title">{t("simulator.attachment.title", { kind: t(`messages.types.${kind}`) })}</DialogTitle>
      <Box component="form" noValidate onSubmit={submit}>
        <DialogContent sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
          <Typography variant="body2" sx={{ wordBreak: "break-all" }}>
            {pending?.file
              ? t("simulator.attachment.file", { name: pending.file.name, size: Math.ceil(pending.file.size / 1024) })
              : t("simulator.attachment.sample")}
          </Typography>
          {kind === "audio" ? (
            <FormControlLabel
              control={<Checkbox checked={voice} onChange={(e) => setVoice(e.target.checked)} />}
              label={t("simulator.attachment.voice")}
            />
          ) : (
            <TextField
              label={t("simulator.attachment.caption")}
              value={caption}
              onChange={(e) => setCaption(e.target.value)}
              autoFocus
              multiline
              maxRows={4}
              slotProps={{ htmlInput: { maxLength: 1024 } }}
            />
          )}
          {(kind === "image" || kind === "video") && (
            <FormControlLabel
              control={<Checkbox checked={viewOnce} onChange={(e) => setViewOnce(e.target.checked)} />}
              label={t("simulator.attachment.viewOnce")}
            />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} color="inherit" disabled={busy}>
            {t("common.cancel")}
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={busy}
            autoFocus={kind === "audio"}
            startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
          >
            {t("simulator.chat.send")}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
