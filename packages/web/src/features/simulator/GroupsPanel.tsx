import type { SimulatorGroupDTO, SimulatorGroupMessageDTO } from "@balcao/shared";
import { Box, Button, List, ListItem, ListItemText, MenuItem, Paper, TextField, Typography } from "@mui/material";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { apiRequest } from "../../api/client";
import { toastError } from "../../components/toastError";
import { POLL_WITHOUT_SOCKET_MS, type SimulatorAccess } from "./api";

const groupsKey = (access: SimulatorAccess) => ["simulator", "groups", access.connectionId, access.key ?? ""] as const;

function groupsRequest<T>(access: SimulatorAccess, path: string, method: "GET" | "POST" | "PUT" = "GET", body?: unknown): Promise<T> {
  return apiRequest<T>(`/simulator/${access.connectionId}/groups${path}`, {
    method,
    body,
    anonymous: access.key !== null,
    query: access.key !== null ? { key: access.key } : undefined,
  });
}

/** "5511999990001 Ana, 5511999990002 Bruno" → participants (number, optional name). */
export function parseParticipants(text: string): { number: string; name?: string }[] {
  return text
    .split(/[,;\n]/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [number = "", ...name] = part.split(/\s+/);
      return { number: number.replace(/^\+/, ""), ...(name.length > 0 && { name: name.join(" ") }) };
    });
}

/**
 * Simulated WhatsApp groups (issue 21): create one with a subject and several participants, write in it as any
 * of them, rename it; the company's answers show in its log. The ticket takes the subject, each message the
 * participant's name.
 */
export function GroupsPanel({ access, disabled }: { access: SimulatorAccess; disabled?: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const groups = useQuery({
    queryKey: groupsKey(access),
    queryFn: () => groupsRequest<SimulatorGroupDTO[]>(access, ""),
    refetchInterval: POLL_WITHOUT_SOCKET_MS,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: groupsKey(access) });
  const create = useMutation({
    mutationFn: (body: { subject: string; participants: { number: string; name?: string }[] }) =>
      groupsRequest<SimulatorGroupDTO>(access, "", "POST", body),
    onSuccess: refresh,
  });
  const [subject, setSubject] = useState("");
  const [participants, setParticipants] = useState("");

  const onCreate = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await create.mutateAsync({ subject: subject.trim(), participants: parseParticipants(participants) });
      setSubject("");
      setParticipants("");
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <Box component="section" aria-label={t("simulator.groups.title")} sx={{ display: "flex", flexDirection: "column", gap: 1, p: 1.5 }}>
      <Typography variant="subtitle2" component="h3">
        {t("simulator.groups.title")}
      </Typography>
      <Box component="form" noValidate onSubmit={(e) => void onCreate(e)} sx={{ display: "flex", flexDirection: "column", gap: 1 }}>
        <TextField
          size="small"
          label={t("simulator.groups.subject")}
          value={subject}
          onChange={(e) => setSubject(e.target.value)}
          disabled={disabled}
        />
        <TextField
          size="small"
          label={t("simulator.groups.participants")}
          helperText={t("simulator.groups.participantsHelp")}
          value={participants}
          onChange={(e) => setParticipants(e.target.value)}
          disabled={disabled}
        />
        <Button type="submit" variant="outlined" disabled={disabled || create.isPending || !subject.trim() || !participants.trim()}>
          {t("simulator.groups.create")}
        </Button>
      </Box>
      {(groups.data ?? []).map((group) => (
        <GroupCard key={group.id} access={access} group={group} disabled={disabled} onChanged={refresh} />
      ))}
    </Box>
  );
}

function GroupCard({
  access,
  group,
  disabled,
  onChanged,
}: {
  access: SimulatorAccess;
  group: SimulatorGroupDTO;
  disabled?: boolean;
  onChanged: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const [from, setFrom] = useState(group.participants[0]?.number ?? "");
  const [body, setBody] = useState("");
  const [subject, setSubject] = useState(group.subject);
  const send = useMutation({
    mutationFn: () => groupsRequest<SimulatorGroupMessageDTO>(access, `/${group.id}/messages`, "POST", { from, body: body.trim() }),
    onSuccess: onChanged,
  });
  const rename = useMutation({
    mutationFn: () => groupsRequest<SimulatorGroupDTO>(access, `/${group.id}`, "PUT", { subject: subject.trim() }),
    onSuccess: onChanged,
  });
  const nameOf = (number: string | undefined) => group.participants.find((p) => p.number === number)?.name ?? number ?? "";

  const onSend = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await send.mutateAsync();
      setBody("");
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <Paper variant="outlined" component="article" aria-label={group.subject} sx={{ p: 1, display: "flex", flexDirection: "column", gap: 1 }}>
      <Typography variant="subtitle2" component="h4">
        {group.subject}
      </Typography>
      <List dense disablePadding aria-label={t("simulator.groups.messages", { subject: group.subject })}>
        {group.messages.map((m) => (
          <ListItem key={m.id} disableGutters>
            <ListItemText primary={m.body} secondary={m.direction === "in" ? t("simulator.groups.company") : nameOf(m.from)} />
          </ListItem>
        ))}
      </List>
      <Box component="form" noValidate onSubmit={(e) => void onSend(e)} sx={{ display: "flex", flexDirection: "column", gap: 1 }}>
        <TextField select size="small" label={t("simulator.groups.from")} value={from} onChange={(e) => setFrom(e.target.value)} disabled={disabled}>
          {group.participants.map((p) => (
            <MenuItem key={p.number} value={p.number}>
              {p.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField size="small" label={t("simulator.groups.message")} value={body} onChange={(e) => setBody(e.target.value)} disabled={disabled} />
        <Button type="submit" variant="contained" disabled={disabled || send.isPending || !body.trim() || !from}>
          {t("simulator.groups.send")}
        </Button>
      </Box>
      <Box sx={{ display: "flex", gap: 1 }}>
        <TextField
          size="small"
          label={t("simulator.groups.rename")}
          value={subject}
          onChange={(e) => setSubject(e.target.value)}
          disabled={disabled}
        />
        <Button
          onClick={() => void rename.mutateAsync().catch(toastError)}
          disabled={disabled || rename.isPending || !subject.trim() || subject.trim() === group.subject}
        >
          {t("simulator.groups.save")}
        </Button>
      </Box>
    </Paper>
  );
}
