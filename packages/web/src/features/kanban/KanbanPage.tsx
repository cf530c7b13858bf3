import { ComingSoon } from "../../components/ComingSoon";

/** Kanban board /kanban — filled in by its own issue. */
export default function KanbanPage() {
  return <ComingSoon titleKey="pages.kanban" />;
}
