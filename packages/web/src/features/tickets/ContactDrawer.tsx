import { contactUpdateBody, formatPhoneNumber, type ContactDTO, type ContactExtraInfoDTO, type TicketDTO } from "@balcao/shared";
import { Avatar, Box, Button, CircularProgress, Divider, Drawer, IconButton, TextField, Toolbar, Typography } from "@mui/material";
import AddCircleOutline from "@mui/icons-material/AddCircleOutlineOutlined";
import Close from "@mui/icons-material/Close";
import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import EditOutlined from "@mui/icons-material/EditOutlined";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { enqueueSnackbar } from "../../components/toasts";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../../api/client";
import { LoadingState } from "../../components/LoadingState";
import { toastError, translateValidation } from "../../components/toastError";
import { useSession } from "../auth/SessionProvider";
import { TicketNotes } from "../ticket-notes/TicketNotes";
import { patchTicketsCache } from "./ticketsCache";

/** Spec §9: the contact drawer is 320 px wide. */
export const CONTACT_DRAWER_WIDTH = 320;

interface ContactDrawerProps {
  open: boolean;
  onClose: () => void;
  ticket: TicketDTO;
  /** Wide screens keep it beside the conversation; narrow ones overlay it. */
  variant: "persistent" | "temporary";
}

function ContactForm({ contact, onDone }: { contact: ContactDTO; onDone: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const [name, setName] = useState(contact.name);
  const [number, setNumber] = useState(contact.number ?? "");
  const [email, setEmail] = useState(contact.email ?? "");
  const [extra, setExtra] = useState<Pick<ContactExtraInfoDTO, "name" | "value">[]>(
    contact.extraInfo?.map(({ name: n, value }) => ({ name: n, value })) ?? [],
  );
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [saving, setSaving] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = { name, ...(contact.isGroup ? {} : { number }), email, extraInfo: extra.filter((x) => x.name.trim()) };
    const parsed = contactUpdateBody.safeParse(body);
    if (!parsed.success) {
      const next: Record<string, string | undefined> = {};
      for (const issue of parsed.error.issues) next[String(issue.path[0])] ??= translateValidation(issue.message);
      setErrors(next);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const saved = await api.put<ContactDTO>(`/contacts/${contact.id}`, body);
      queryClient.setQueryData(["tickets", "contact", contact.id], saved);
      if (user) patchTicketsCache(queryClient, { action: "contact", contact: saved }, user);
      enqueueSnackbar(t("tickets.contact.saved"), { variant: "success", autoHideDuration: 2000 });
      onDone();
    } catch (err) {
      toastError(err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={(e) => void submit(e)} sx={{ display: "flex", flexDirection: "column", gap: 1.5 }}>
      <TextField
        size="small"
        label={t("tickets.contact.name")}
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={!!errors.name}
        helperText={errors.name}
        autoFocus
      />
      {!contact.isGroup && (
        <TextField
          size="small"
          label={t("tickets.contact.number")}
          value={number}
          onChange={(e) => setNumber(e.target.value)}
          error={!!errors.number}
          helperText={errors.number}
        />
      )}
      <TextField
        size="small"
        label={t("tickets.contact.email")}
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={!!errors.email}
        helperText={errors.email}
      />
      <Typography variant="subtitle2">{t("tickets.contact.extraInfo")}</Typography>
      {extra.map((item, i) => (
        <Box key={i} sx={{ display: "flex", gap: 1, alignItems: "center" }}>
          <TextField
            size="small"
            label={t("tickets.contact.extraName")}
            value={item.name}
            onChange={(e) => setExtra((xs) => xs.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))}
          />
          <TextField
            size="small"
            label={t("tickets.contact.extraValue")}
            value={item.value}
            onChange={(e) => setExtra((xs) => xs.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))}
          />
          <IconButton size="small" aria-label={t("tickets.contact.removeExtra")} onClick={() => setExtra((xs) => xs.filter((_, j) => j !== i))}>
            <DeleteOutline fontSize="small" />
          </IconButton>
        </Box>
      ))}
      <Button
        size="small"
        startIcon={<AddCircleOutline />}
        onClick={() => setExtra((xs) => [...xs, { name: "", value: "" }])}
        sx={{ alignSelf: "flex-start" }}
      >
        {t("tickets.contact.addExtra")}
      </Button>
      <Box sx={{ display: "flex", gap: 1, justifyContent: "flex-end" }}>
        <Button color="inherit" onClick={onDone} disabled={saving}>
          {t("common.cancel")}
        </Button>
        <Button type="submit" variant="contained" disabled={saving} startIcon={saving ? <CircularProgress size={16} color="inherit" /> : undefined}>
          {t("common.save")}
        </Button>
      </Box>
    </Box>
  );
}

/** The right contact drawer (spec §2): contact data and extra info (editable) and the ticket notes. */
export function ContactDrawer({ open, onClose, ticket, variant }: ContactDrawerProps) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const details = useQuery({
    queryKey: ["tickets", "contact", ticket.contactId],
    queryFn: () => api.get<ContactDTO>(`/contacts/${ticket.contactId}`),
    enabled: open,
    retry: false,
  });
  // GET /contacts/:id may not be there yet: fall back to what the ticket carries.
  const contact: ContactDTO = details.data ?? {
    ...ticket.contact,
    companyId: 0,
    createdAt: ticket.createdAt,
    updatedAt: ticket.updatedAt,
    extraInfo: [],
  };

  const content = (
    <Box
      sx={{ width: CONTACT_DRAWER_WIDTH, display: "flex", flexDirection: "column", height: "100%", minHeight: 0 }}
      role="complementary"
      aria-label={t("tickets.contact.title")}
    >
      <Toolbar variant="dense" sx={{ gap: 1, borderBottom: 1, borderColor: "divider" }}>
        <IconButton edge="start" aria-label={t("tickets.close")} onClick={onClose}>
          <Close />
        </IconButton>
        <Typography variant="subtitle1">{t("tickets.contact.title")}</Typography>
      </Toolbar>
      <Box sx={{ flex: 1, overflowY: "auto", p: 2, display: "flex", flexDirection: "column", gap: 2 }}>
        {details.isLoading ? (
          <LoadingState />
        ) : editing ? (
          <ContactForm contact={contact} onDone={() => setEditing(false)} />
        ) : (
          <Box sx={{ display: "flex", flexDirection: "column", alignItems: "center", gap: 0.5, textAlign: "center" }}>
            <Avatar src={contact.profilePicUrl || undefined} alt={contact.name} sx={{ width: 96, height: 96 }}>
              {contact.name.charAt(0).toUpperCase()}
            </Avatar>
            <Typography variant="h6" sx={{ wordBreak: "break-word" }}>
              {contact.name}
            </Typography>
            {contact.number && <Typography variant="body2">{formatPhoneNumber(contact.number)}</Typography>}
            {contact.email && <Typography variant="body2">{contact.email}</Typography>}
            <Button
              size="small"
              variant="outlined"
              startIcon={<EditOutlined />}
              onClick={() => setEditing(true)}
              disabled={details.isError && !details.data}
            >
              {t("tickets.contact.edit")}
            </Button>
            {details.isError && (
              <Typography variant="caption" color="text.secondary">
                {t("tickets.contact.unavailable")}
              </Typography>
            )}
            {(contact.extraInfo?.length ?? 0) > 0 && (
              <Box sx={{ alignSelf: "stretch", textAlign: "left", mt: 1 }}>
                <Typography variant="subtitle2">{t("tickets.contact.extraInfo")}</Typography>
                {contact.extraInfo?.map((info) => (
                  <Box key={info.id} sx={{ py: 0.5 }}>
                    <Typography variant="caption" color="text.secondary">
                      {info.name}
                    </Typography>
                    <Typography variant="body2" sx={{ wordBreak: "break-word" }}>
                      {info.value}
                    </Typography>
                  </Box>
                ))}
              </Box>
            )}
          </Box>
        )}
        <Divider />
        <TicketNotes ticketId={ticket.id} contactId={ticket.contactId} />
      </Box>
    </Box>
  );

  if (variant === "temporary") {
    return (
      <Drawer anchor="right" open={open} onClose={onClose}>
        {content}
      </Drawer>
    );
  }
  return open ? (
    <Box sx={{ borderLeft: 1, borderColor: "divider", bgcolor: "background.paper", display: "flex", flexShrink: 0 }}>{content}</Box>
  ) : null;
}
