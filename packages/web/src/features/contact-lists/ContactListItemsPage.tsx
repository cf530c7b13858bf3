import { ComingSoon } from "../../components/ComingSoon";

/** Contact list items /contact-lists/:contactListId/contacts — filled in by its own issue. */
export default function ContactListItemsPage() {
  return <ComingSoon titleKey="pages.contactListItems" />;
}
