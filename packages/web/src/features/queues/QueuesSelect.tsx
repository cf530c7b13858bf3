import type { QueueRefDTO } from "@balcao/shared";
import { Box, Chip, MenuItem, TextField } from "@mui/material";
import type { Ref } from "react";

interface QueuesSelectProps {
  label: string;
  /** Selected queue ids. */
  value: number[];
  onChange: (ids: number[]) => void;
  onBlur?: () => void;
  inputRef?: Ref<HTMLInputElement>;
  options: readonly QueueRefDTO[];
  /** Queues known from the record being edited, to label a selected id the options lack. */
  known?: readonly QueueRefDTO[];
  helperText?: string;
}

/** Multiple choice of the company's queues, the chosen ones shown as chips in their colour (user and connection modals). */
export function QueuesSelect({ label, value, onChange, onBlur, inputRef, options, known = [], helperText }: QueuesSelectProps) {
  return (
    <TextField
      select
      label={label}
      fullWidth
      value={value}
      onChange={(e) => {
        // A multiple select hands over the chosen values as an array (typed as the input's string).
        const chosen: unknown = e.target.value;
        onChange(Array.isArray(chosen) ? chosen.map(Number) : []);
      }}
      onBlur={onBlur}
      inputRef={inputRef}
      helperText={helperText}
      slotProps={{
        select: {
          multiple: true,
          renderValue: () => (
            <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.5 }}>
              {value.map((id) => {
                const queue = options.find((q) => q.id === id) ?? known.find((q) => q.id === id);
                return <Chip key={id} size="small" label={queue?.name ?? id} sx={{ bgcolor: queue?.color, color: queue ? "#fff" : undefined }} />;
              })}
            </Box>
          ),
        },
      }}
    >
      {options.map((queue) => (
        <MenuItem key={queue.id} value={queue.id}>
          {queue.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
