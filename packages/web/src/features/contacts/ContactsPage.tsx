import { ComingSoon } from "../../components/ComingSoon";

/** Contacts /contacts — filled in by its own issue. */
export default function ContactsPage() {
  return <ComingSoon titleKey="pages.contacts" />;
}
