import { can, COLOR_PALETTE, tagCreateBody, type TagCreateBody, type TagDTO } from "@balcao/shared";
import { Box, FormControlLabel, FormHelperText, Switch, TextField } from "@mui/material";
import { enqueueSnackbar } from "../../components/toasts";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { ColorPicker } from "../../components/ColorPicker";
import { DialogForm, FormDialog, type DialogState } from "../../components/form/FormDialog";
import { useZodForm } from "../../components/form/useZodForm";
import { useSession } from "../auth/SessionProvider";
import { useSaveTag } from "./api";

/** Spec §6: the Kanban switch of the tag modal is for admins and supervisors. */
export function canToggleKanban(user: { profile: string } | null | undefined): boolean {
  return can(user, "tag-modal:kanban");
}

/** Add/edit a tag (spec §2): name ('Obrigatório', 'Mensagem muito curta'), colour from the palette, Kanban switch. */
export function TagModal({ tag, ...dialog }: DialogState & { tag?: TagDTO | null }) {
  const { t } = useTranslation();
  const title = tag ? t("tagModal.title.edit") : t("tagModal.title.add");
  return (
    <FormDialog {...dialog} title={title}>
      <TagForm key={tag?.id ?? "new"} tag={tag ?? null} onClose={dialog.onClose} />
    </FormDialog>
  );
}

function TagForm({ tag, onClose }: { tag: TagDTO | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const showKanban = canToggleKanban(user);
  const save = useSaveTag(tag?.id);
  const form = useZodForm(tagCreateBody, {
    defaultValues: { name: tag?.name ?? "", color: tag?.color ?? COLOR_PALETTE[0], kanban: tag?.kanban === 1 },
  });

  const onSubmit = form.submit(async (values) => {
    const body: TagCreateBody = { name: values.name, color: values.color };
    if (showKanban) body.kanban = values.kanban;
    await save.mutateAsync(body);
    enqueueSnackbar(tag ? t("tagModal.success.edit") : t("tagModal.success.add"), { variant: "success" });
    onClose();
  });

  return (
    <DialogForm
      onSubmit={onSubmit}
      onCancel={onClose}
      busy={form.busy}
      submitLabel={tag ? t("tagModal.buttons.okEdit") : t("tagModal.buttons.okAdd")}
    >
      <TextField {...form.field("name")} label={t("tagModal.form.name")} autoFocus fullWidth />
      <Controller
        name="color"
        control={form.control}
        render={({ field }) => (
          <ColorPicker
            {...form.fieldError("color")}
            label={t("tagModal.form.color")}
            previewLabel={t("tagModal.form.colorSelected")}
            swatchLabel={(color) => t("tagModal.form.colorSwatch", { color })}
            value={typeof field.value === "string" ? field.value : ""}
            onChange={field.onChange}
          />
        )}
      />
      {showKanban && (
        <Controller
          name="kanban"
          control={form.control}
          render={({ field }) => (
            <Box>
              <FormControlLabel
                control={
                  <Switch
                    checked={field.value === true || field.value === 1}
                    onChange={(e) => field.onChange(e.target.checked)}
                    onBlur={field.onBlur}
                  />
                }
                label={t("tagModal.form.kanban")}
              />
              <FormHelperText sx={{ mt: 0 }}>{t("tagModal.form.kanbanHint")}</FormHelperText>
            </Box>
          )}
        />
      )}
    </DialogForm>
  );
}
