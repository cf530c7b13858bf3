import { ComingSoon } from "../../components/ComingSoon";

/** Queues & chatbot /queues — filled in by its own issue. */
export default function QueuesPage() {
  return <ComingSoon titleKey="pages.queues" />;
}
