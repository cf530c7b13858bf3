import { PROFILES, can, userCreateBody, userUpdateBody, type UserCreateBody, type UserDTO, type UserUpdateBody } from "@balcao/shared";
import { MenuItem, TextField } from "@mui/material";
import { enqueueSnackbar } from "../../components/toasts";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { ZodType, input, output } from "zod";
import { DialogForm, FormDialog, type DialogState } from "../../components/form/FormDialog";
import { useZodForm } from "../../components/form/useZodForm";
import { useSession } from "../auth/SessionProvider";
import { QueuesSelect } from "../queues/QueuesSelect";
import { useQueueOptions, useSaveUser } from "./api";

/** Adding validates with the create schema, editing with the update one (a blank password keeps the current). */
type UserFormSchema = ZodType<output<typeof userUpdateBody>, input<typeof userUpdateBody>>;

/** Add/edit a user (spec §2 Modals). Profile and queues are shown only to those allowed to edit them. */
export function UserModal({ user, ...dialog }: DialogState & { user?: UserDTO | null }) {
  const { t } = useTranslation();
  const title = user ? t("userModal.title.edit") : t("userModal.title.add");
  return (
    <FormDialog {...dialog} title={title}>
      <UserForm key={user?.id ?? "new"} user={user ?? null} onClose={dialog.onClose} />
    </FormDialog>
  );
}

function UserForm({ user, onClose }: { user: UserDTO | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { user: me, setUser } = useSession();
  const canEditProfile = can(me, "user-modal:editProfile");
  const canEditQueues = can(me, "user-modal:editQueues");
  const queues = useQueueOptions(canEditQueues);
  const save = useSaveUser(user?.id);

  const schema: UserFormSchema = user ? userUpdateBody : userCreateBody;
  const form = useZodForm(schema, {
    defaultValues: {
      name: user?.name ?? "",
      email: user?.email ?? "",
      password: "",
      profile: user?.profile ?? "user",
      queueIds: user?.queues.map((q) => q.id) ?? [],
    },
  });

  const onSubmit = form.submit(
    async (values) => {
      const body: UserCreateBody | UserUpdateBody = { name: values.name, email: values.email, password: values.password || undefined };
      if (canEditProfile) body.profile = values.profile;
      if (canEditQueues) body.queueIds = values.queueIds;
      const saved = await save.mutateAsync(body);
      if (me && saved?.id === me.id) setUser(saved);
      enqueueSnackbar(t("userModal.success"), { variant: "success" });
      onClose();
    },
    { codeFields: { ERR_DUPLICATED_EMAIL: "email" } },
  );

  const queueOptions = queues.data ?? [];

  return (
    <DialogForm
      onSubmit={onSubmit}
      onCancel={onClose}
      busy={form.busy}
      submitLabel={user ? t("userModal.buttons.okEdit") : t("userModal.buttons.okAdd")}
    >
      <TextField {...form.field("name")} label={t("userModal.form.name")} autoFocus fullWidth />
      <TextField {...form.field("email")} label={t("userModal.form.email")} type="email" autoComplete="off" fullWidth />
      <TextField
        {...form.field("password", user ? t("userModal.form.passwordKeep") : undefined)}
        label={t("userModal.form.password")}
        type="password"
        autoComplete="new-password"
        fullWidth
      />
      {canEditProfile && (
        <Controller
          name="profile"
          control={form.control}
          render={({ field }) => (
            <TextField select label={t("userModal.form.profile")} fullWidth {...field}>
              {PROFILES.map((profile) => (
                <MenuItem key={profile} value={profile}>
                  {t(`users.profiles.${profile}`)}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
      )}
      {canEditQueues && (
        <Controller
          name="queueIds"
          control={form.control}
          render={({ field }) => (
            <QueuesSelect
              label={t("userModal.form.queues")}
              value={(field.value ?? []).map(Number)}
              onChange={field.onChange}
              onBlur={field.onBlur}
              inputRef={field.ref}
              options={queueOptions}
              helperText={queueOptions.length === 0 ? t("userModal.form.noQueues") : undefined}
            />
          )}
        />
      )}
    </DialogForm>
  );
}
