import { Box, Button, IconButton, List, ListItem, ListItemText, Paper, TextField, Tooltip } from "@mui/material";
import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import EditOutlined from "@mui/icons-material/EditOutlined";
import { formatDateTime } from "../../app/format";
import { useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { EmptyState } from "../../components/EmptyState";
import { PageHeader } from "../../components/PageHeader";
import { useSession } from "../auth/SessionProvider";
import { isBlankTask, useTodos, type TodoTask } from "./useTodos";

const when = (iso: string) => formatDateTime(iso);

/**
 * Local to-do list /todolist (spec §2): tasks with text, created and updated times; add, edit, delete.
 * Stored only in this browser, one list per signed-in user (nothing reaches the server).
 */
export default function TodoListPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const { tasks, add, edit, remove } = useTodos(user?.companyId ?? 0, user?.id ?? 0);
  const [text, setText] = useState("");
  const [editing, setEditing] = useState<TodoTask | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<TodoTask | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (isBlankTask(text)) {
      setError(t("todoList.errors.blank"));
      input.current?.focus();
      return;
    }
    if (editing) edit(editing.id, text);
    else add(text);
    setText("");
    setEditing(null);
    setError(null);
    input.current?.focus();
  };

  const startEdit = (task: TodoTask) => {
    setEditing(task);
    setText(task.text);
    setError(null);
    input.current?.focus();
  };

  const cancelEdit = () => {
    setEditing(null);
    setText("");
    setError(null);
  };

  return (
    <Box sx={{ display: "flex", flexDirection: "column", height: "100%", maxWidth: 900 }}>
      <PageHeader title={t("todoList.title")} />
      <Box component="form" noValidate onSubmit={submit} sx={{ display: "flex", gap: 1, alignItems: "flex-start", mb: 2 }}>
        <TextField
          inputRef={input}
          label={editing ? t("todoList.editLabel") : t("todoList.newLabel")}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            if (error) setError(null);
          }}
          onKeyDown={(e) => {
            if (e.key === "Escape" && editing) cancelEdit();
          }}
          error={!!error}
          helperText={error ?? (editing ? t("todoList.editHint") : " ")}
          fullWidth
          autoFocus
          size="small"
        />
        <Button type="submit" variant="contained" sx={{ whiteSpace: "nowrap", mt: 0.25 }}>
          {editing ? t("todoList.save") : t("todoList.add")}
        </Button>
        {editing && (
          <Button color="inherit" onClick={cancelEdit} sx={{ mt: 0.25 }}>
            {t("common.cancel")}
          </Button>
        )}
      </Box>

      {tasks.length === 0 ? (
        <EmptyState title={t("todoList.empty")} description={t("todoList.emptyHint")} />
      ) : (
        <Paper variant="outlined" sx={{ overflow: "auto" }}>
          <List aria-label={t("todoList.title")} disablePadding>
            {tasks.map((task) => (
              <ListItem
                key={task.id}
                divider
                data-testid="todo-item"
                secondaryAction={
                  <>
                    <Tooltip title={t("todoList.edit")}>
                      <IconButton aria-label={t("todoList.editTask", { text: task.text })} onClick={() => startEdit(task)}>
                        <EditOutlined fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t("todoList.delete")}>
                      <IconButton aria-label={t("todoList.deleteTask", { text: task.text })} onClick={() => setToDelete(task)}>
                        <DeleteOutline fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </>
                }
                sx={{ pr: 12, bgcolor: editing?.id === task.id ? "action.selected" : undefined }}
              >
                <ListItemText
                  primary={task.text}
                  slotProps={{ primary: { sx: { whiteSpace: "pre-wrap", overflowWrap: "anywhere" } } }}
                  secondary={
                    task.updatedAt !== task.createdAt
                      ? t("todoList.createdUpdated", { created: when(task.createdAt), updated: when(task.updatedAt) })
                      : t("todoList.created", { created: when(task.createdAt) })
                  }
                />
              </ListItem>
            ))}
          </List>
        </Paper>
      )}

      <ConfirmationDialog
        open={!!toDelete}
        title={t("todoList.deleteTitle")}
        onClose={() => setToDelete(null)}
        onConfirm={() => {
          if (toDelete) {
            remove(toDelete.id);
            if (editing?.id === toDelete.id) cancelEdit();
          }
          setToDelete(null);
        }}
        confirmLabel={t("todoList.delete")}
      >
        {toDelete?.text}
      </ConfirmationDialog>
    </Box>
  );
}
