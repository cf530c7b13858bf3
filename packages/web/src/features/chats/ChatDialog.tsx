import { CHAT_MSG, CHAT_TITLE_MAX, type ChatDTO } from "@balcao/shared";
import { Autocomplete, TextField } from "@mui/material";
import { enqueueSnackbar } from "../../components/toasts";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { DialogForm, FormDialog, type DialogState } from "../../components/form/FormDialog";
import { useZodForm } from "../../components/form/useZodForm";
import { translateValidation } from "../../components/toastError";
import { useSession } from "../auth/SessionProvider";
import { useUserOptions } from "../tickets/api";
import { useSaveChat } from "./api";

/** The dialog's fields: the texts of spec §5, the limits of the shared chat schema. */
const chatForm = z.object({
  title: z.string().trim().min(1, CHAT_MSG.titleRequired).max(CHAT_TITLE_MAX),
  users: z.array(z.number()).min(1, CHAT_MSG.usersRequired),
});

const VALIDATION_KEYS: Record<string, string> = {
  [CHAT_MSG.titleRequired]: "chats.validation.title",
  [CHAT_MSG.usersRequired]: "chats.validation.users",
};

interface ChatDialogProps extends DialogState {
  /** The chat to edit (its owner only); none = a new chat. */
  chat?: ChatDTO | null;
  onSaved?: (chat: ChatDTO) => void;
}

/** New chat / edit chat (spec §2): title and the company's users; the current user is always a member. */
export function ChatDialog({ open, onClose, chat, onSaved }: ChatDialogProps) {
  const { t } = useTranslation();
  return (
    <FormDialog open={open} onClose={onClose} title={chat ? t("chats.dialog.edit") : t("chats.dialog.add")}>
      <ChatForm key={chat?.id ?? "new"} chat={chat ?? null} onClose={onClose} onSaved={onSaved} />
    </FormDialog>
  );
}

function ChatForm({ chat, onClose, onSaved }: { chat: ChatDTO | null; onClose: () => void; onSaved?: (chat: ChatDTO) => void }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const options = useUserOptions();
  const save = useSaveChat(chat?.id);
  const users = (options.data ?? []).filter((u) => u.id !== user?.id);
  const form = useZodForm(chatForm, {
    defaultValues: { title: chat?.title ?? "", users: chat ? chat.users.map((u) => u.userId).filter((id) => id !== user?.id) : [] },
    translate: (message) => (message && VALIDATION_KEYS[message] ? i18n.t(VALIDATION_KEYS[message]) : translateValidation(message)),
  });
  const onSubmit = form.submit(async (values) => {
    const saved = await save.mutateAsync({ title: values.title, users: values.users.map((id) => ({ id })) });
    enqueueSnackbar(t("chats.toasts.saved"), { variant: "success", autoHideDuration: 3000 });
    onSaved?.(saved);
    onClose();
  });

  return (
    <DialogForm onSubmit={onSubmit} onCancel={onClose} busy={form.busy} submitLabel={t("chats.dialog.save")}>
      <TextField {...form.field("title")} label={t("chats.dialog.title")} autoFocus fullWidth />
      <Controller
        control={form.control}
        name="users"
        render={({ field }) => (
          <Autocomplete
            multiple
            options={users}
            loading={options.isPending}
            getOptionLabel={(u) => u.name}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            value={users.filter((u) => field.value.includes(u.id))}
            onChange={(_e, chosen) => field.onChange(chosen.map((u) => u.id))}
            renderInput={(params) => <TextField {...params} {...form.fieldError("users")} label={t("chats.dialog.users")} />}
          />
        )}
      />
    </DialogForm>
  );
}
