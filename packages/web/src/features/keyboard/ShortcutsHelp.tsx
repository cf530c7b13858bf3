import { Box, Dialog, DialogContent, DialogTitle, Table, TableBody, TableCell, TableRow } from "@mui/material";
import { useTranslation } from "react-i18next";
import { SHORTCUT_KEYS } from "./shortcuts";

const kbd = { fontFamily: "monospace", border: 1, borderColor: "divider", borderRadius: 1, px: 0.75, py: 0.25, bgcolor: "action.hover" } as const;

/** The `?` help sheet: every keyboard shortcut and what it does (issue 16). */
export function ShortcutsHelp({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const mac = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);
  const rows = [
    { keys: mac ? "⌘ K" : "Ctrl K", label: t("keyboard.help.palette") },
    ...SHORTCUT_KEYS.map((s) => ({ keys: s.key, label: t(`keyboard.actions.${s.action}`) })),
    { keys: "?", label: t("keyboard.help.help") },
  ];
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="shortcuts-help-title">
      <DialogTitle id="shortcuts-help-title">{t("keyboard.help.title")}</DialogTitle>
      <DialogContent>
        <Table size="small" aria-labelledby="shortcuts-help-title">
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.keys}>
                <TableCell component="th" scope="row" sx={{ width: 96, whiteSpace: "nowrap" }}>
                  <Box component="kbd" sx={kbd}>
                    {row.keys}
                  </Box>
                </TableCell>
                <TableCell>{row.label}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </DialogContent>
    </Dialog>
  );
}
