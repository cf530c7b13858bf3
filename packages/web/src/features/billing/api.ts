import {
  PAYMENT_REDIRECT_MS,
  type CheckoutBody,
  type InvoiceListResponse,
  type PaymentEventPayload,
  type PixChargeDTO,
  type PlanDTO,
  type PlatformInvoiceListResponse,
} from "@balcao/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { enqueueSnackbar } from "../../components/toasts";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { api } from "../../api/client";
import { useSocketEvent } from "../../api/SocketProvider";
import { usePagedQuery } from "../../components/list/useListData";
import { useSession } from "../auth/SessionProvider";
import { formatDate } from "../../app/format";

export const billingKeys = {
  all: ["billing"] as const,
  invoices: (searchParam: string) => ["billing", "invoices", searchParam] as const,
  platform: (searchParam: string) => ["billing", "platform", searchParam] as const,
  plans: ["billing", "plans"] as const,
};

/** GET /invoices/all (spec §7): the company's invoices, newest due date first. */
export function useInvoicesList(searchParam: string) {
  return usePagedQuery<InvoiceListResponse>(billingKeys.invoices(searchParam), "/invoices/all", searchParam);
}

/** Super users: open invoices of every company (static Pix payments are confirmed from here). */
export function usePlatformInvoices(searchParam: string, enabled: boolean) {
  return useQuery({
    queryKey: billingKeys.platform(searchParam),
    queryFn: () => api.get<PlatformInvoiceListResponse>("/invoices/platform", { searchParam, pageNumber: 1 }),
    enabled,
  });
}

export function useConfirmPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invoiceId: number) => api.post(`/invoices/${invoiceId}/confirm-payment`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingKeys.all }),
  });
}

/** The plans (public list): the checkout shows the company's own. */
export function usePlans() {
  return useQuery({ queryKey: billingKeys.plans, queryFn: () => api.get<PlanDTO[]>("/plans/list"), staleTime: 60_000 });
}

/** POST /subscription: a Pix charge for an invoice; the server decides the amount. */
export function useCheckout() {
  return useMutation({ mutationFn: (body: CheckoutBody) => api.post<PixChargeDTO>("/subscription", body) });
}

/**
 * The `payment` event (spec §4): a CONCLUIDA payment shows 'Sua licença foi renovada até {date}!' and, 4 s
 * later, takes the user to / with the new due date (which also lifts an expired company's billing-only mode).
 */
export function usePaymentRealtime(): void {
  const { t } = useTranslation();
  const { user, setUser } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const userRef = useRef(user);
  userRef.current = user;
  useEffect(() => () => clearTimeout(timer.current), []);

  useSocketEvent<PaymentEventPayload>("payment", (event) => {
    if (event.action !== "CONCLUIDA") return;
    void queryClient.invalidateQueries({ queryKey: billingKeys.all });
    const dueDate = event.company?.dueDate ?? null;
    enqueueSnackbar(t("billing.toasts.renewed", { date: dueDate ? formatDate(dueDate) : "" }), { variant: "success" });
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const current = userRef.current;
      if (current) setUser({ ...current, company: { ...current.company, dueDate, trialExpiration: null } });
      navigate("/", { replace: true });
    }, PAYMENT_REDIRECT_MS);
  });
}
