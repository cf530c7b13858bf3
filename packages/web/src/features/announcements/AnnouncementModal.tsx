import { ANNOUNCEMENT_MEDIA_EXTENSIONS, ANNOUNCEMENT_MEDIA_MAX_BYTES, announcementCreateBody, type AnnouncementDTO } from "@balcao/shared";
import { Box, Button, IconButton, MenuItem, TextField, Tooltip, Typography } from "@mui/material";
import AttachFile from "@mui/icons-material/AttachFile";
import Close from "@mui/icons-material/Close";
import { enqueueSnackbar } from "notistack";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { DialogForm, FormDialog } from "../../components/form/FormDialog";
import { useZodForm } from "../../components/form/useZodForm";
import { translateValidation } from "../../components/toastError";
import { withSpecFailure } from "../companies/specFailure";
import { useAnnouncementMedia, useSaveAnnouncement } from "./api";
import { PRIORITY_KEYS } from "./priority";

interface AnnouncementModalProps {
  open: boolean;
  onClose: () => void;
  announcement: AnnouncementDTO | null;
}

/** What the attachment picker accepts (spec §5); the server checks the bytes too. */
export function attachmentProblem(file: Pick<File, "name" | "size">): "type" | "size" | null {
  const lower = file.name.toLowerCase();
  if (!ANNOUNCEMENT_MEDIA_EXTENSIONS.some((ext) => lower.endsWith(ext))) return "type";
  if (file.size > ANNOUNCEMENT_MEDIA_MAX_BYTES) return "size";
  return null;
}

/** Add/edit an announcement (super user): title and text ('Obrigatório'), priority, status, an image attachment. */
export function AnnouncementModal({ open, onClose, announcement }: AnnouncementModalProps) {
  const { t } = useTranslation();
  return (
    <FormDialog open={open} onClose={onClose} title={announcement ? t("announcements.modal.edit") : t("announcements.modal.add")}>
      <AnnouncementForm key={announcement?.id ?? "new"} announcement={announcement} onClose={onClose} />
    </FormDialog>
  );
}

function AnnouncementForm({ announcement, onClose }: { announcement: AnnouncementDTO | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveAnnouncement(announcement?.id);
  const media = useAnnouncementMedia();
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [removeCurrent, setRemoveCurrent] = useState(false);
  const form = useZodForm(announcementCreateBody, {
    defaultValues: {
      title: announcement?.title ?? "",
      text: announcement?.text ?? "",
      priority: announcement?.priority ?? 3,
      status: announcement ? (announcement.status ? "true" : "false") : "true",
    },
    translate: (message) => (message === "Invalid priority" ? t("announcements.validation.priority") : translateValidation(message)),
  });

  const pick = (picked: File | undefined) => {
    if (!picked) return;
    const problem = attachmentProblem(picked);
    if (problem) {
      enqueueSnackbar(t(`announcements.attachment.${problem}`), { variant: "error" });
      return;
    }
    setFile(picked);
  };

  const onSubmit = form.submit(async (values) => {
    const saved = await withSpecFailure(() => save.mutateAsync(values), t("announcements.toasts.saveFailed"));
    // The record exists now; its attachment follows (a failed upload keeps the saved text and says why).
    if (file) await media.upload.mutateAsync({ id: saved.id, file });
    else if (removeCurrent && announcement?.mediaPath) await media.remove.mutateAsync(saved.id);
    enqueueSnackbar(t("announcements.toasts.saved"), { variant: "success" });
    onClose();
  });

  const currentName = file?.name ?? (removeCurrent ? null : announcement?.mediaName) ?? null;

  return (
    <DialogForm onSubmit={onSubmit} onCancel={onClose} busy={form.busy} submitLabel={t("announcements.modal.save")}>
      <TextField {...form.field("title")} label={t("announcements.form.title")} autoFocus fullWidth />
      <TextField {...form.field("text")} label={t("announcements.form.text")} multiline minRows={4} maxRows={12} fullWidth />
      <Box sx={{ display: "flex", gap: 2 }}>
        <TextField {...form.field("priority")} select label={t("announcements.form.priority")} defaultValue={form.getValues("priority")} fullWidth>
          {([1, 2, 3] as const).map((priority) => (
            <MenuItem key={priority} value={priority}>
              {t(`announcements.priority.${PRIORITY_KEYS[priority]}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField {...form.field("status")} select label={t("announcements.form.status")} defaultValue={form.getValues("status")} fullWidth>
          <MenuItem value="true">{t("announcements.status.active")}</MenuItem>
          <MenuItem value="false">{t("announcements.status.inactive")}</MenuItem>
        </TextField>
      </Box>
      <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
        <input
          ref={fileInput}
          type="file"
          hidden
          accept={ANNOUNCEMENT_MEDIA_EXTENSIONS.join(",")}
          data-testid="announcement-file"
          onChange={(e) => {
            pick(e.target.files?.[0]);
            e.target.value = "";
          }}
        />
        <Button variant="outlined" startIcon={<AttachFile />} onClick={() => fileInput.current?.click()}>
          {t("announcements.form.attach")}
        </Button>
        <Typography
          variant="body2"
          color={currentName ? "text.primary" : "text.secondary"}
          noWrap
          sx={{ flexGrow: 1 }}
          data-testid="announcement-attachment-name"
        >
          {currentName ?? t("announcements.noAttachment")}
        </Typography>
        {currentName && (
          <Tooltip title={t("announcements.form.removeAttachment")}>
            <IconButton
              aria-label={t("announcements.form.removeAttachment")}
              onClick={() => {
                if (file) setFile(null);
                else setRemoveCurrent(true);
              }}
            >
              <Close fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
      </Box>
      <Typography variant="caption" color="text.secondary">
        {t("announcements.form.attachHint", { size: Math.round(ANNOUNCEMENT_MEDIA_MAX_BYTES / 1024 / 1024) })}
      </Typography>
    </DialogForm>
  );
}
