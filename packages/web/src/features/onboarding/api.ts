import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { useSocketEvent } from "../../api/SocketProvider";

/** GET /api/onboarding (issue 16; the server's modules/onboarding). */
export type OnboardingStepKey = "connection" | "queue" | "attendant" | "reply";
export interface OnboardingState {
  steps: { key: OnboardingStepKey; done: boolean }[];
  completed: boolean;
  dismissed: boolean;
}

export const onboardingKey = ["onboarding"] as const;

export function useOnboarding(enabled: boolean) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: onboardingKey,
    queryFn: ({ signal }) => api.get<OnboardingState>("/onboarding", undefined, { signal }),
    enabled,
    retry: false,
  });
  // The steps follow the company's data: refresh when a connection, queue, user or message changes.
  const refresh = () => {
    if (enabled) void client.invalidateQueries({ queryKey: onboardingKey });
  };
  useSocketEvent("whatsappSession", refresh);
  useSocketEvent("whatsapp", refresh);
  useSocketEvent("queue", refresh);
  useSocketEvent("user", refresh);
  // Messages are frequent: only while the first reply is still to come.
  useSocketEvent<{ action: string; message?: { fromMe?: boolean } }>("appMessage", (event) => {
    const reply = query.data?.steps.find((s) => s.key === "reply");
    if (reply && !reply.done && event.action === "create" && event.message?.fromMe) refresh();
  });
  return query;
}

export function useDismissOnboarding() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (dismissed: boolean) => api.put<OnboardingState>("/onboarding", { dismissed }),
    onSuccess: (state) => client.setQueryData(onboardingKey, state),
  });
}
