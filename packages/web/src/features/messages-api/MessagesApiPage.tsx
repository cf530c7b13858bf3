import { ComingSoon } from "../../components/ComingSoon";

/** Messages API documentation /messages-api — filled in by its own issue. */
export default function MessagesApiPage() {
  return <ComingSoon titleKey="pages.messagesApi" />;
}
