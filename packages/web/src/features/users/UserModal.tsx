import { PROFILES, can, userCreateBody, userUpdateBody, type Profile, type UserCreateBody, type UserDTO, type UserUpdateBody } from "@balcao/shared";
import { zodResolver } from "@hookform/resolvers/zod";
import { Box, Button, Chip, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, TextField } from "@mui/material";
import { enqueueSnackbar } from "notistack";
import { Controller, useForm, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { toastError, translateValidation } from "../../components/toastError";
import { useSession } from "../auth/SessionProvider";
import { useQueueOptions, useSaveUser } from "./api";

interface UserModalProps {
  open: boolean;
  onClose: () => void;
  /** The user to edit; absent to add one. */
  user?: UserDTO | null;
}

interface UserFormValues {
  name: string;
  email: string;
  password: string;
  profile: Profile;
  queueIds: number[];
}

/** Add/edit a user (spec §2 Modals). Profile and queues are shown only to those allowed to edit them. */
export function UserModal({ open, onClose, user }: UserModalProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="user-modal-title">
      <DialogTitle id="user-modal-title">{user ? t("userModal.title.edit") : t("userModal.title.add")}</DialogTitle>
      {open && <UserForm key={user?.id ?? "new"} user={user ?? null} onClose={onClose} />}
    </Dialog>
  );
}

function UserForm({ user, onClose }: { user: UserDTO | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { user: me, setUser } = useSession();
  const canEditProfile = can(me, "user-modal:editProfile");
  const canEditQueues = can(me, "user-modal:editQueues");
  const queues = useQueueOptions(canEditQueues);
  const save = useSaveUser(user?.id);

  const schema = user ? userUpdateBody : userCreateBody;
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<UserFormValues>({
    resolver: zodResolver(schema) as unknown as Resolver<UserFormValues>,
    defaultValues: {
      name: user?.name ?? "",
      email: user?.email ?? "",
      password: "",
      profile: user?.profile ?? "user",
      queueIds: user?.queues.map((q) => q.id) ?? [],
    },
  });

  const onSubmit = handleSubmit(async (values) => {
    const body: UserCreateBody | UserUpdateBody = { name: values.name, email: values.email, password: values.password || undefined };
    if (canEditProfile) body.profile = values.profile;
    if (canEditQueues) body.queueIds = values.queueIds;
    try {
      const saved = await save.mutateAsync(body);
      if (me && saved?.id === me.id) setUser(saved);
      enqueueSnackbar(t("userModal.success"), { variant: "success" });
      onClose();
    } catch (err) {
      toastError(err);
    }
  });

  const queueOptions = queues.data ?? [];
  const busy = isSubmitting || save.isPending;

  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <DialogContent dividers sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
        <TextField
          {...register("name")}
          label={t("userModal.form.name")}
          autoFocus
          fullWidth
          error={!!errors.name}
          helperText={translateValidation(errors.name?.message)}
        />
        <TextField
          {...register("email")}
          label={t("userModal.form.email")}
          type="email"
          autoComplete="off"
          fullWidth
          error={!!errors.email}
          helperText={translateValidation(errors.email?.message)}
        />
        <TextField
          {...register("password")}
          label={t("userModal.form.password")}
          type="password"
          autoComplete="new-password"
          fullWidth
          error={!!errors.password}
          helperText={translateValidation(errors.password?.message) ?? (user ? t("userModal.form.passwordKeep") : undefined)}
        />
        {canEditProfile && (
          <Controller
            name="profile"
            control={control}
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
            control={control}
            render={({ field }) => (
              <TextField
                select
                label={t("userModal.form.queues")}
                fullWidth
                value={field.value}
                onChange={(e) => field.onChange(e.target.value as unknown as number[])}
                onBlur={field.onBlur}
                inputRef={field.ref}
                helperText={queueOptions.length === 0 ? t("userModal.form.noQueues") : undefined}
                slotProps={{
                  select: {
                    multiple: true,
                    renderValue: (selected) => (
                      <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.5 }}>
                        {(selected as number[]).map((id) => {
                          const queue = queueOptions.find((q) => q.id === id);
                          return <Chip key={id} size="small" label={queue?.name ?? id} sx={{ bgcolor: queue?.color, color: queue ? "#fff" : undefined }} />;
                        })}
                      </Box>
                    ),
                  },
                }}
              >
                {queueOptions.map((queue) => (
                  <MenuItem key={queue.id} value={queue.id}>
                    {queue.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit" disabled={busy}>
          {t("common.cancel")}
        </Button>
        <Button type="submit" variant="contained" disabled={busy} startIcon={busy ? <CircularProgress size={18} color="inherit" /> : undefined}>
          {user ? t("userModal.buttons.okEdit") : t("userModal.buttons.okAdd")}
        </Button>
      </DialogActions>
    </Box>
  );
}
