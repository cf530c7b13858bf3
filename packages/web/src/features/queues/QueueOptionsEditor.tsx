import { queueOptionCreateBody, type QueueOptionDTO } from "@balcao/shared";
import { Alert, Box, Button, Chip, CircularProgress, TextField, Typography } from "@mui/material";
import AddOutlined from "@mui/icons-material/AddOutlined";
import SubdirectoryArrowRight from "@mui/icons-material/SubdirectoryArrowRight";
import { enqueueSnackbar } from "../../components/toasts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { EmptyState } from "../../components/EmptyState";
import { RowActionButtons } from "../../components/list/ListPage";
import { useZodForm } from "../../components/form/useZodForm";
import { LoadingState } from "../../components/LoadingState";
import { toastError } from "../../components/toastError";
import { useCreateQueueOption, useDeleteQueueOption, useQueueOptionTree, useUpdateQueueOption } from "./api";
import { translateQueueValidation } from "./schedules";

/** What the editor is doing: adding under a parent (null = root level) or editing one option. */
type Editing = { mode: "add"; parentId: number | null } | { mode: "edit"; option: QueueOptionDTO } | null;

/**
 * The chatbot's option tree of a queue (docs/api.md Queue options): nested options of any depth, each
 * with its number, title and message; add a child, edit or delete (with its subtree) per node. Needs a
 * saved queue: on a new one it explains to save first.
 */
export function QueueOptionsEditor({ queueId }: { queueId: number | undefined }) {
  const { t } = useTranslation();
  const tree = useQueueOptionTree(queueId);
  const [editing, setEditing] = useState<Editing>(null);
  const [toDelete, setToDelete] = useState<QueueOptionDTO | null>(null);
  const remove = useDeleteQueueOption(queueId ?? 0);

  const confirmDelete = async () => {
    if (!toDelete) return;
    try {
      await remove.mutateAsync(toDelete.id);
      enqueueSnackbar(t("queues.options.toasts.deleted"), { variant: "success" });
      if (editing?.mode === "edit" && editing.option.id === toDelete.id) setEditing(null);
    } catch (err) {
      toastError(err);
    }
    setToDelete(null);
  };

  return (
    <Box component="section" aria-labelledby="queue-options-title" sx={{ mt: 3 }}>
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, mb: 1 }}>
        <Typography id="queue-options-title" variant="subtitle1" component="h3" sx={{ flexGrow: 1, fontWeight: 600 }}>
          {t("queues.options.title")}
        </Typography>
        {queueId && (
          <Button
            size="small"
            startIcon={<AddOutlined />}
            onClick={() => setEditing({ mode: "add", parentId: null })}
            disabled={editing?.mode === "add" && editing.parentId === null}
          >
            {t("queues.options.add")}
          </Button>
        )}
      </Box>
      {!queueId ? (
        <Alert severity="info">{t("queues.options.saveFirst")}</Alert>
      ) : (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {t("queues.options.help")}
          </Typography>
          {editing?.mode === "add" && editing.parentId === null && <OptionForm queueId={queueId} editing={editing} onDone={() => setEditing(null)} />}
          {tree.isPending && <LoadingState />}
          {tree.isError && <EmptyState title={t("queues.options.loadFailed")} />}
          {tree.isSuccess && tree.data.length === 0 && !(editing?.mode === "add" && editing.parentId === null) && (
            <Typography variant="body2" color="text.secondary" role="status" sx={{ py: 1 }}>
              {t("queues.options.empty")}
            </Typography>
          )}
          {tree.isSuccess && tree.data.length > 0 && (
            <Box component="ul" aria-label={t("queues.options.title")} sx={{ listStyle: "none", m: 0, p: 0 }}>
              {tree.data.map((option) => (
                <OptionNode
                  key={option.id}
                  queueId={queueId}
                  option={option}
                  depth={1}
                  editing={editing}
                  setEditing={setEditing}
                  onDelete={setToDelete}
                />
              ))}
            </Box>
          )}
        </>
      )}
      <ConfirmationDialog
        open={!!toDelete}
        title={t("queues.options.confirmDelete.title", { title: toDelete?.title ?? "" })}
        onClose={() => setToDelete(null)}
        onConfirm={() => void confirmDelete()}
        confirmLabel={t("common.delete")}
        loading={remove.isPending}
      >
        {toDelete && toDelete.children.length > 0 ? t("queues.options.confirmDelete.withChildren") : t("queues.options.confirmDelete.message")}
      </ConfirmationDialog>
    </Box>
  );
}

interface OptionNodeProps {
  queueId: number;
  option: QueueOptionDTO;
  depth: number;
  editing: Editing;
  setEditing: (editing: Editing) => void;
  onDelete: (option: QueueOptionDTO) => void;
}

function OptionNode({ queueId, option, depth, editing, setEditing, onDelete }: OptionNodeProps) {
  const { t } = useTranslation();
  const isEditing = editing?.mode === "edit" && editing.option.id === option.id;
  const isAddingChild = editing?.mode === "add" && editing.parentId === option.id;
  return (
    <Box component="li" aria-label={`${option.option} - ${option.title}`} data-depth={depth} sx={{ mt: 1 }}>
      {isEditing ? (
        <OptionForm queueId={queueId} editing={editing} onDone={() => setEditing(null)} />
      ) : (
        <Box sx={{ display: "flex", alignItems: "flex-start", gap: 1, p: 1, borderRadius: 1, border: 1, borderColor: "divider" }}>
          <Chip size="small" color="primary" label={option.option} sx={{ mt: 0.25, fontWeight: 600 }} />
          <Box sx={{ flexGrow: 1, minWidth: 0 }}>
            <Typography sx={{ fontWeight: 500, overflowWrap: "anywhere" }}>{option.title}</Typography>
            {option.message && (
              <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
                {option.message}
              </Typography>
            )}
          </Box>
          <Box sx={{ display: "flex", flexShrink: 0 }}>
            <RowActionButtons
              actions={[
                {
                  label: t("queues.options.addChildOf", { title: option.title }),
                  tooltip: t("queues.options.addChild"),
                  icon: <SubdirectoryArrowRight fontSize="small" />,
                  onClick: () => setEditing({ mode: "add", parentId: option.id }),
                },
                { kind: "edit", label: t("queues.options.editOf", { title: option.title }), onClick: () => setEditing({ mode: "edit", option }) },
                { kind: "delete", label: t("queues.options.deleteOf", { title: option.title }) },
              ]}
              onDelete={() => onDelete(option)}
            />
          </Box>
        </Box>
      )}
      {(option.children.length > 0 || isAddingChild) && (
        <Box
          component="ul"
          aria-label={t("queues.options.childrenOf", { title: option.title })}
          sx={{ listStyle: "none", m: 0, pl: 3, borderLeft: 2, borderColor: "divider", ml: 1.5 }}
        >
          {option.children.map((child) => (
            <OptionNode
              key={child.id}
              queueId={queueId}
              option={child}
              depth={depth + 1}
              editing={editing}
              setEditing={setEditing}
              onDelete={onDelete}
            />
          ))}
          {isAddingChild && (
            <Box component="li" sx={{ mt: 1 }}>
              <OptionForm queueId={queueId} editing={editing} onDone={() => setEditing(null)} />
            </Box>
          )}
        </Box>
      )}
    </Box>
  );
}

const optionSchema = queueOptionCreateBody.pick({ title: true, message: true, option: true });

/** Inline form to add an option under a parent (or at the root) or to edit one; Escape cancels. */
function OptionForm({ queueId, editing, onDone }: { queueId: number; editing: NonNullable<Editing>; onDone: () => void }) {
  const { t } = useTranslation();
  const create = useCreateQueueOption(queueId);
  const update = useUpdateQueueOption(queueId);
  const current = editing.mode === "edit" ? editing.option : null;
  const form = useZodForm(optionSchema, {
    defaultValues: { option: current?.option ?? "", title: current?.title ?? "", message: current?.message ?? "" },
    // A blank number means "the next free one" (the schema's omitted option).
    prepare: (values) => (typeof values.option === "string" && values.option.trim() === "" ? { ...values, option: undefined } : values),
    translate: translateQueueValidation,
  });

  const onSubmit = form.submit(
    async (values) => {
      const body = { title: values.title, message: values.message, ...(values.option ? { option: values.option } : {}) };
      if (editing.mode === "edit") await update.mutateAsync({ id: editing.option.id, body });
      else await create.mutateAsync(editing.parentId === null ? body : { ...body, parentId: editing.parentId });
      enqueueSnackbar(t("queues.options.toasts.saved"), { variant: "success" });
      onDone();
    },
    { codeFields: { ERR_QUEUE_OPTION_ALREADY_EXISTS: "option" } },
  );

  const busy = form.busy;
  const formTitle =
    editing.mode === "edit"
      ? t("queues.options.editTitle")
      : editing.parentId === null
        ? t("queues.options.addTitle")
        : t("queues.options.addChildTitle");

  return (
    <Box
      component="form"
      noValidate
      aria-label={formTitle}
      onSubmit={(e) => {
        e.stopPropagation();
        void onSubmit(e);
      }}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.stopPropagation();
          onDone();
        }
      }}
      sx={{ display: "flex", flexDirection: "column", gap: 1.5, p: 1.5, borderRadius: 1, border: 1, borderColor: "primary.main" }}
    >
      <Typography variant="subtitle2" component="p">
        {formTitle}
      </Typography>
      <Box sx={{ display: "flex", gap: 1.5, flexWrap: { xs: "wrap", sm: "nowrap" } }}>
        <TextField
          {...form.field("option", t("queues.options.form.optionHelp"))}
          size="small"
          label={t("queues.options.form.option")}
          sx={{ width: { xs: "100%", sm: 140 }, flexShrink: 0 }}
          slotProps={{ htmlInput: { inputMode: "numeric", maxLength: 3 } }}
        />
        <TextField {...form.field("title")} size="small" label={t("queues.options.form.title")} autoFocus fullWidth />
      </Box>
      <TextField
        {...form.register("message")}
        size="small"
        label={t("queues.options.form.message")}
        multiline
        minRows={2}
        maxRows={6}
        fullWidth
        helperText={t("queues.options.form.messageHelp")}
      />
      <Box sx={{ display: "flex", justifyContent: "flex-end", gap: 1 }}>
        <Button onClick={onDone} color="inherit" disabled={busy}>
          {t("common.cancel")}
        </Button>
        <Button type="submit" variant="contained" disabled={busy} startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}>
          {t("queues.options.form.save")}
        </Button>
      </Box>
    </Box>
  );
}
