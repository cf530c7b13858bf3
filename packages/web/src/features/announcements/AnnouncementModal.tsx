import { ANNOUNCEMENT_MEDIA_EXTENSIONS, ANNOUNCEMENT_MEDIA_MAX_BYTES, announcementCreateBody, type AnnouncementDTO } from "@balcao/shared";
import { Box, MenuItem, TextField, Typography } from "@mui/material";
import { enqueueSnackbar } from "../../components/toasts";
import { useTranslation } from "react-i18next";
import { AttachmentField, useAttachment } from "../../components/form/AttachmentField";
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
  const attachment = useAttachment(announcement?.mediaName, (picked) => {
    const problem = attachmentProblem(picked);
    return problem ? t(`announcements.attachment.${problem}`) : null;
  });
  const form = useZodForm(announcementCreateBody, {
    defaultValues: {
      title: announcement?.title ?? "",
      text: announcement?.text ?? "",
      priority: announcement?.priority ?? 3,
      status: announcement ? (announcement.status ? "true" : "false") : "true",
    },
    translate: (message) => (message === "Invalid priority" ? t("announcements.validation.priority") : translateValidation(message)),
  });

  const onSubmit = form.submit(async (values) => {
    const saved = await withSpecFailure(() => save.mutateAsync(values), t("announcements.toasts.saveFailed"));
    // The record exists now; its attachment follows (a failed upload keeps the saved text and says why).
    if (attachment.file) await media.upload.mutateAsync({ id: saved.id, file: attachment.file });
    else if (attachment.removeCurrent && announcement?.mediaPath) await media.remove.mutateAsync(saved.id);
    enqueueSnackbar(t("announcements.toasts.saved"), { variant: "success" });
    onClose();
  });

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
      <AttachmentField
        attachment={attachment}
        accept={ANNOUNCEMENT_MEDIA_EXTENSIONS.join(",")}
        labels={{ attach: t("announcements.form.attach"), none: t("announcements.noAttachment"), remove: t("announcements.form.removeAttachment") }}
        testIds={{ input: "announcement-file", name: "announcement-attachment-name" }}
      />
      <Typography variant="caption" color="text.secondary">
        {t("announcements.form.attachHint", { size: Math.round(ANNOUNCEMENT_MEDIA_MAX_BYTES / 1024 / 1024) })}
      </Typography>
    </DialogForm>
  );
}
