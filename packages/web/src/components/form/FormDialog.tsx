/**
 * FormDialog / DialogForm / DialogFormActions — the shell of every add/edit modal.
 *
 *   <FormDialog open={open} onClose={onClose} title={record ? t("….edit") : t("….add")}>
 *     <RecordForm key={record?.id ?? "new"} record={record} onClose={onClose} />   // mounted only while open
 *   </FormDialog>
 *
 *   function RecordForm(…) {
 *     const form = useZodForm(schema, { defaultValues });
 *     const onSubmit = form.submit(async (values) => { … });
 *     return (
 *       <DialogForm onSubmit={onSubmit} onCancel={onClose} busy={form.busy} submitLabel={t("….ok")}>
 *         <TextField {...form.field("name")} label=… autoFocus fullWidth />
 *       </DialogForm>
 *     );
 *   }
 *
 * The content is mounted only while the dialog is open, so a form starts from its defaults each time (key it
 * by the record to switch records). DialogForm is the <form> (Enter submits) with the fields in a column and
 * Cancel / submit (spinner while busy) below. A dialog that needs another layout (tabs, a section outside
 * the form) keeps its own markup and reuses DialogFormActions with `formId`.
 */
import {
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  type Breakpoint,
  type SxProps,
  type Theme,
} from "@mui/material";
import { useId, type BaseSyntheticEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** What a page hands its add/edit dialog: `<TagModal open={…} onClose={…} tag={…} />`. */
export interface DialogState {
  open: boolean;
  onClose: () => void;
}

interface FormDialogProps extends DialogState {
  title: ReactNode;
  maxWidth?: Breakpoint;
  children: ReactNode;
}

export function FormDialog({ open, onClose, title, maxWidth = "sm", children }: FormDialogProps) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} maxWidth={maxWidth} fullWidth scroll="paper" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      {open && children}
    </Dialog>
  );
}

interface DialogFormActionsProps {
  onCancel: () => void;
  submitLabel: ReactNode;
  busy?: boolean;
  /** Disables the submit button (e.g. nothing chosen yet); it is always disabled while busy. */
  submitDisabled?: boolean;
  cancelLabel?: ReactNode;
  /** The id of the form the submit button belongs to, when the buttons sit outside it. */
  formId?: string;
}

export function DialogFormActions({ onCancel, submitLabel, busy = false, submitDisabled = false, cancelLabel, formId }: DialogFormActionsProps) {
  const { t } = useTranslation();
  return (
    <DialogActions>
      <Button onClick={onCancel} color="inherit" disabled={busy}>
        {cancelLabel ?? t("common.cancel")}
      </Button>
      <Button
        type="submit"
        form={formId}
        variant="contained"
        disabled={busy || submitDisabled}
        startIcon={busy ? <CircularProgress size={18} color="inherit" /> : undefined}
      >
        {submitLabel}
      </Button>
    </DialogActions>
  );
}

interface DialogFormProps extends Omit<DialogFormActionsProps, "formId"> {
  onSubmit: (event?: BaseSyntheticEvent) => unknown;
  children: ReactNode;
  /** Style of the content column (default: a column with gap 2). */
  contentSx?: SxProps<Theme>;
}

export function DialogForm({ onSubmit, children, contentSx, ...actions }: DialogFormProps) {
  return (
    <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)} sx={{ display: "contents" }}>
      <DialogContent dividers sx={contentSx ?? { display: "flex", flexDirection: "column", gap: 2 }}>
        {children}
      </DialogContent>
      <DialogFormActions {...actions} />
    </Box>
  );
}
