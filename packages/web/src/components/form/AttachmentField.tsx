import { Box, Button, IconButton, Tooltip, Typography } from "@mui/material";
import AttachFile from "@mui/icons-material/AttachFile";
import Close from "@mui/icons-material/Close";
import { enqueueSnackbar } from "../toasts";
import { useRef, useState } from "react";

/**
 * A form's single attachment before it is saved: the file picked (null: none), whether the saved one is to be
 * removed, and the name to show. `check` returns the toast text refusing a file, or null to take it.
 */
export function useAttachment(savedName: string | null | undefined, check: (file: File) => string | null) {
  const [file, setFile] = useState<File | null>(null);
  const [removeCurrent, setRemoveCurrent] = useState(false);
  const pick = (picked: File | undefined) => {
    if (!picked) return;
    const problem = check(picked);
    if (problem) {
      enqueueSnackbar(problem, { variant: "error" });
      return;
    }
    setFile(picked);
  };
  // Removing a picked file shows the saved one again; removing the saved one marks it for deletion on save.
  const remove = () => {
    if (file) setFile(null);
    else setRemoveCurrent(true);
  };
  const name = file?.name ?? (removeCurrent ? null : savedName) ?? null;
  return { file, removeCurrent, pick, remove, name };
}

export type Attachment = ReturnType<typeof useAttachment>;

interface AttachmentFieldProps {
  attachment: Attachment;
  /** The file input's accept list (extensions or types); all files when absent. */
  accept?: string;
  /** Shows the name only (no attach or remove button). */
  readOnly?: boolean;
  labels: { attach: string; none: string; remove: string };
  testIds: { input: string; name: string };
}

/** The attach button, the attachment's name (or 'none') and its remove button, as announcement and campaign dialogs show them. */
export function AttachmentField({ attachment, accept, readOnly = false, labels, testIds }: AttachmentFieldProps) {
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
      <input
        ref={fileInput}
        type="file"
        hidden
        accept={accept}
        data-testid={testIds.input}
        onChange={(e) => {
          attachment.pick(e.target.files?.[0]);
          e.target.value = "";
        }}
      />
      {!readOnly && (
        <Button variant="outlined" startIcon={<AttachFile />} onClick={() => fileInput.current?.click()}>
          {labels.attach}
        </Button>
      )}
      <Typography variant="body2" color={attachment.name ? "text.primary" : "text.secondary"} noWrap sx={{ flexGrow: 1 }} data-testid={testIds.name}>
        {attachment.name ?? labels.none}
      </Typography>
      {attachment.name && !readOnly && (
        <Tooltip title={labels.remove}>
          <IconButton aria-label={labels.remove} onClick={attachment.remove}>
            <Close fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
    </Box>
  );
}
