import type { PlanCreateBody, PlanUpdateBody, PlanWithUsageDTO } from "@balcao/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";

export const planKeys = {
  /** Every plan query (the public list of sign-up and checkout, the super user's /plans/all). */
  root: ["plans"] as const,
  all: ["plans", "all"] as const,
};

/** GET /plans/all (super): every plan with how many companies use it. */
export function usePlansAll(enabled = true) {
  return useQuery({ queryKey: planKeys.all, queryFn: ({ signal }) => api.get<PlanWithUsageDTO[]>("/plans/all", undefined, { signal }), enabled });
}

export function useSavePlan(planId: number | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PlanCreateBody | PlanUpdateBody) =>
      planId ? api.put<PlanWithUsageDTO>(`/plans/${planId}`, body) : api.post<PlanWithUsageDTO>("/plans", body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: planKeys.root }),
  });
}

export function useDeletePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (planId: number) => api.delete(`/plans/${planId}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: planKeys.root }),
  });
}
