import { type PlanWithUsageDTO } from "@balcao/shared";
import { useTranslation } from "react-i18next";
import { ListPage, useRecordDialog } from "../../components/list/ListPage";
import { queryList } from "../../components/list/useListData";
import { withSpecFailure } from "../companies/specFailure";
import { useDeletePlan, usePlansAll } from "./api";
import { PlanModal } from "./PlanModal";
import { formatMoney } from "../../app/format";

/** Settings › Planos (super users): every plan with its limits, price and how many companies use it. */
export function PlansTab() {
  const { t } = useTranslation();
  const list = queryList(usePlansAll());
  const deletePlan = useDeletePlan();
  const dialog = useRecordDialog<PlanWithUsageDTO>();

  return (
    <ListPage
      title={t("plans.title")}
      add={{ label: t("plans.buttons.add"), onClick: dialog.openNew }}
      list={list}
      testId="plans-scroll"
      rowProps={(plan) => ({ "data-testid": "plan-row", "data-plan-id": plan.id })}
      columns={[
        { header: t("plans.table.name"), cell: (plan) => plan.name },
        { header: t("plans.table.users"), align: "center", cell: (plan) => plan.users },
        { header: t("plans.table.connections"), align: "center", cell: (plan) => plan.connections },
        { header: t("plans.table.queues"), align: "center", cell: (plan) => plan.queues },
        { header: t("plans.table.value"), align: "right", cell: (plan) => formatMoney(plan.value) },
        { header: t("plans.table.companies"), align: "center", cell: (plan) => plan.companiesCount },
      ]}
      rowActions={{
        header: t("plans.table.actions"),
        actions: (plan) => [
          { kind: "edit", label: t("plans.actions.edit", { name: plan.name }), onClick: () => dialog.openEdit(plan) },
          { kind: "delete", label: t("plans.actions.delete", { name: plan.name }) },
        ],
      }}
      deletion={{
        title: (plan) => t("plans.confirmation.title", { name: plan.name }),
        message: t("plans.confirmation.message"),
        run: (plan) => withSpecFailure(() => deletePlan.mutateAsync(plan.id), t("plans.toasts.deleteFailed")),
        successMessage: t("plans.toasts.deleted"),
      }}
      empty={{ title: t("plans.empty") }}
    >
      <PlanModal open={dialog.open} plan={dialog.record} onClose={dialog.close} />
    </ListPage>
  );
}
