import { ComingSoon } from "../../components/ComingSoon";

/** Contact lists /contact-lists — filled in by its own issue. */
export default function ContactListsPage() {
  return <ComingSoon titleKey="pages.contactLists" />;
}
