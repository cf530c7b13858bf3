import type { MessageDTO } from "@balcao/shared";
import AccessTime from "@mui/icons-material/AccessTime";
import Done from "@mui/icons-material/Done";
import DoneAll from "@mui/icons-material/DoneAll";
import ErrorOutline from "@mui/icons-material/ErrorOutlineOutlined";
import { useTranslation } from "react-i18next";

export type AckState = "failed" | "pending" | "sent" | "delivered" | "read";

/** ack of spec §3: 0 pending (clock), 1 sent (check), 2 delivered (double), 3+ read/played (blue double). */
export function ackState(message: Pick<MessageDTO, "ack" | "status">): AckState {
  if (message.status === "failed") return "failed";
  if (message.ack >= 3) return "read";
  if (message.ack === 2) return "delivered";
  if (message.ack === 1 || message.status === "sent") return "sent";
  return "pending";
}

export function AckIcon({ message }: { message: Pick<MessageDTO, "ack" | "status"> }) {
  const { t } = useTranslation();
  const state = ackState(message);
  const props = {
    fontSize: "inherit" as const,
    titleAccess: t(`messages.ack.${state}`),
    "data-ack": state,
    sx: { fontSize: 16, verticalAlign: "middle" },
  };
  switch (state) {
    case "failed":
      return <ErrorOutline {...props} color="error" />;
    case "pending":
      return <AccessTime {...props} />;
    case "sent":
      return <Done {...props} />;
    case "delivered":
      return <DoneAll {...props} />;
    case "read":
      return <DoneAll {...props} sx={{ ...props.sx, color: "#34B7F1" }} />;
  }
}
