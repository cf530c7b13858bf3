import { COLOR_PALETTE, tagCreateBody, type TagCreateBody, type TagDTO } from "@balcao/shared";
import { zodResolver } from "@hookform/resolvers/zod";
import { Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, FormHelperText, Switch, TextField } from "@mui/material";
import { enqueueSnackbar } from "notistack";
import { Controller, useForm, type FieldPath, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../api/client";
import { ColorPicker } from "../../components/ColorPicker";
import { errorText, toastError, translateValidation } from "../../components/toastError";
import { useSession } from "../auth/SessionProvider";
import { useSaveTag } from "./api";

/** Spec §6: the Kanban switch of the tag modal is for admins and supervisors (a profile that may exist one day). */
const KANBAN_PROFILES: readonly string[] = ["admin", "supervisor"];

export function canToggleKanban(user: { profile: string } | null | undefined): boolean {
  return !!user && KANBAN_PROFILES.includes(user.profile);
}

interface TagModalProps {
  open: boolean;
  onClose: () => void;
  /** The tag to edit; absent to add one. */
  tag?: TagDTO | null;
}

interface TagFormValues {
  name: string;
  color: string;
  kanban: boolean;
}

/** Add/edit a tag (spec §2): name ('Obrigatório', 'Mensagem muito curta'), colour from the palette, Kanban switch. */
export function TagModal({ open, onClose, tag }: TagModalProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="tag-modal-title">
      <DialogTitle id="tag-modal-title">{tag ? t("tagModal.title.edit") : t("tagModal.title.add")}</DialogTitle>
      {open && <TagForm key={tag?.id ?? "new"} tag={tag ?? null} onClose={onClose} />}
    </Dialog>
  );
}

function TagForm({ tag, onClose }: { tag: TagDTO | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const showKanban = canToggleKanban(user);
  const save = useSaveTag(tag?.id);
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TagFormValues>({
    resolver: zodResolver(tagCreateBody) as unknown as Resolver<TagFormValues>,
    defaultValues: { name: tag?.name ?? "", color: tag?.color ?? COLOR_PALETTE[0], kanban: tag?.kanban === 1 },
  });

  const onSubmit = handleSubmit(async (values) => {
    const body: TagCreateBody = { name: values.name, color: values.color };
    if (showKanban) body.kanban = values.kanban;
    try {
      await save.mutateAsync(body);
      enqueueSnackbar(tag ? t("tagModal.success.edit") : t("tagModal.success.add"), { variant: "success" });
      onClose();
    } catch (err) {
      if (err instanceof ApiError) {
        for (const issue of err.body.issues ?? []) {
          if (issue.path) setError(issue.path as FieldPath<TagFormValues>, { type: "server", message: issue.message });
        }
      }
      toastError(err);
    }
  });

  const busy = isSubmitting || save.isPending;
  const fieldText = (message: string | undefined) => (message === "Invalid color" ? errorText(message) : translateValidation(message));

  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <DialogContent dividers sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
        <TextField {...register("name")} label={t("tagModal.form.name")} autoFocus fullWidth error={!!errors.name} helperText={fieldText(errors.name?.message)} />
        <Controller
          name="color"
          control={control}
          render={({ field }) => (
            <ColorPicker
              label={t("tagModal.form.color")}
              previewLabel={t("tagModal.form.colorSelected")}
              swatchLabel={(color) => t("tagModal.form.colorSwatch", { color })}
              value={field.value}
              onChange={field.onChange}
              error={!!errors.color}
              helperText={fieldText(errors.color?.message)}
            />
          )}
        />
        {showKanban && (
          <Controller
            name="kanban"
            control={control}
            render={({ field }) => (
              <Box>
                <FormControlLabel
                  control={<Switch checked={!!field.value} onChange={(e) => field.onChange(e.target.checked)} onBlur={field.onBlur} />}
                  label={t("tagModal.form.kanban")}
                />
                <FormHelperText sx={{ mt: 0 }}>{t("tagModal.form.kanbanHint")}</FormHelperText>
              </Box>
            )}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit" disabled={busy}>
          {t("common.cancel")}
        </Button>
        <Button type="submit" variant="contained" disabled={busy} startIcon={busy ? <CircularProgress size={18} color="inherit" /> : undefined}>
          {tag ? t("tagModal.buttons.okEdit") : t("tagModal.buttons.okAdd")}
        </Button>
      </DialogActions>
    </Box>
  );
}
