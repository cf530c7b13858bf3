import { ComingSoon } from "../../components/ComingSoon";

/** Internal chat /chats/:id? — filled in by its own issue. */
export default function ChatsPage() {
  return <ComingSoon titleKey="pages.chats" />;
}
