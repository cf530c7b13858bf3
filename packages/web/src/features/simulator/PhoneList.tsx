import { formatPhoneNumber, simulatorPhoneBody, type SimulatorPhoneDTO } from "@balcao/shared";
import {
  Avatar,
  Box,
  Button,
  CircularProgress,
  List,
  ListItem,
  ListItemAvatar,
  ListItemButton,
  ListItemText,
  TextField,
  Typography,
} from "@mui/material";
import PersonAdd from "@mui/icons-material/PersonAddAlt";
import { useTranslation } from "react-i18next";
import { useZodForm } from "../../components/form/useZodForm";
import type { SimulatorActions } from "./api";
import { previewOf } from "./simulatorMessages";

/** Adds a customer phone (number + name) to the simulated address book. */
export function AddPhoneForm({ actions, onAdded, disabled }: { actions: SimulatorActions; onAdded: (number: string) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const form = useZodForm(simulatorPhoneBody, {
    defaultValues: { number: "", name: "" },
    translate: (message) =>
      message === "Invalid number" ? t("simulator.validation.invalidNumber") : message === "Required" ? t("simulator.validation.required") : message,
  });

  const onSubmit = form.submit(
    async (values) => {
      const phone = await actions.addPhone.mutateAsync({ number: values.number, name: values.name || undefined });
      form.reset();
      onAdded(phone.number);
    },
    { codeFields: { ERR_WAPP_INVALID_CONTACT: "number" } },
  );

  const busy = actions.addPhone.isPending;
  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      aria-label={t("simulator.phones.addTitle")}
      sx={{ display: "flex", flexDirection: "column", gap: 1, p: 1.5 }}
    >
      <Typography variant="subtitle2" component="h3">
        {t("simulator.phones.addTitle")}
      </Typography>
      <TextField
        {...form.field("number", t("simulator.phones.numberHelp"))}
        size="small"
        label={t("simulator.phones.number")}
        placeholder="5511987654321"
        required
        disabled={disabled}
        slotProps={{ htmlInput: { inputMode: "tel", autoComplete: "off" } }}
      />
      <TextField
        {...form.field("name")}
        size="small"
        label={t("simulator.phones.name")}
        disabled={disabled}
        slotProps={{ htmlInput: { maxLength: 100 } }}
      />
      <Button
        type="submit"
        variant="outlined"
        disabled={disabled || busy}
        startIcon={busy ? <CircularProgress size={16} color="inherit" /> : <PersonAdd />}
      >
        {t("simulator.phones.add")}
      </Button>
    </Box>
  );
}

/** The simulated customers: pick one to open its chat. */
export function PhoneList({
  phones,
  selected,
  onSelect,
}: {
  phones: SimulatorPhoneDTO[];
  selected: string | null;
  onSelect: (number: string) => void;
}) {
  const { t } = useTranslation();
  if (phones.length === 0)
    return (
      <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
        {t("simulator.phones.empty")}
      </Typography>
    );
  return (
    <List dense aria-label={t("simulator.phones.title")} sx={{ py: 0 }}>
      {phones.map((phone) => {
        const last = phone.messages.at(-1);
        return (
          <ListItem key={phone.number} disablePadding>
            <ListItemButton
              selected={phone.number === selected}
              onClick={() => onSelect(phone.number)}
              aria-current={phone.number === selected ? "true" : undefined}
            >
              <ListItemAvatar>
                <Avatar>{phone.name.trim().charAt(0).toUpperCase() || "?"}</Avatar>
              </ListItemAvatar>
              <ListItemText
                primary={phone.name}
                secondary={
                  last
                    ? previewOf(last, { deleted: t("simulator.chat.deleted"), kind: (kind) => t(`messages.types.${kind}`, { defaultValue: kind }) })
                    : formatPhoneNumber(phone.number)
                }
                slotProps={{ secondary: { noWrap: true } }}
              />
            </ListItemButton>
          </ListItem>
        );
      })}
    </List>
  );
}
