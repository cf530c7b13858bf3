import { ComingSoon } from "../../components/ComingSoon";

/** Local to-do list /todolist — filled in by its own issue. */
export default function TodoListPage() {
  return <ComingSoon titleKey="pages.todoList" />;
}
