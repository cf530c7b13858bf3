import type { TicketDTO } from "@balcao/shared";
import { Avatar, Box, Dialog, DialogTitle, IconButton, Typography } from "@mui/material";
import Close from "@mui/icons-material/Close";
import { useTranslation } from "react-i18next";
import { MessagesList } from "../messages/MessagesList";

/** Admin 'Espiar Conversa' (spec §2): the conversation read-only, without accepting the ticket. */
export function SpyDialog({ open, ticket, onClose }: { open: boolean; ticket: TicketDTO | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open && !!ticket}
      onClose={onClose}
      maxWidth="md"
      fullWidth
      aria-labelledby="spy-title"
      slotProps={{ paper: { sx: { height: "85vh" } } }}
    >
      {ticket && (
        <>
          <DialogTitle id="spy-title" sx={{ display: "flex", alignItems: "center", gap: 1.5, pr: 6 }}>
            <Avatar src={ticket.contact.profilePicUrl || undefined} alt={ticket.contact.name}>
              {ticket.contact.name.charAt(0).toUpperCase()}
            </Avatar>
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="subtitle1" noWrap>
                {t("tickets.spy.title", { name: ticket.contact.name })}
              </Typography>
              <Typography variant="caption" color="text.secondary">
                {t("tickets.spy.readOnly")}
              </Typography>
            </Box>
            <IconButton aria-label={t("tickets.close")} onClick={onClose} sx={{ position: "absolute", right: 8, top: 8 }}>
              <Close />
            </IconButton>
          </DialogTitle>
          <Box sx={{ flex: 1, minHeight: 0, display: "flex", flexDirection: "column" }}>
            <MessagesList ticket={ticket} readOnly />
          </Box>
        </>
      )}
    </Dialog>
  );
}
