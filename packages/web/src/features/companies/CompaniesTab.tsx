import { addRecurrence, todayIn, type CompanyDTO } from "@balcao/shared";
import { Chip, useTheme } from "@mui/material";
import EventRepeat from "@mui/icons-material/EventRepeat";
import ToggleOffOutlined from "@mui/icons-material/ToggleOffOutlined";
import ToggleOn from "@mui/icons-material/ToggleOn";
import TuneOutlined from "@mui/icons-material/TuneOutlined";
import { enqueueSnackbar } from "../../components/toasts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ListPage, useRecordDialog } from "../../components/list/ListPage";
import { useListSearch, usePagedList } from "../../components/list/useListData";
import { toastError } from "../../components/toastError";
import { useSession } from "../auth/SessionProvider";
import { useCompaniesList, useDeleteCompany, useUpdateCompany } from "./api";
import { CompanyModal } from "./CompanyModal";
import { CompanySettingsDialog } from "./CompanySettingsDialog";
import { companyTone, toneBackground } from "./dueDateTone";
import { withSpecFailure } from "./specFailure";
import { formatDate } from "../../app/format";

/** The next due date of '+ Vencimento': one recurrence span after the current one (today when there is none). */
export function nextDueDate(company: Pick<CompanyDTO, "dueDate" | "recurrence" | "timeZone">, now: Date = new Date()): string {
  return addRecurrence(company.dueDate ?? todayIn(company.timeZone || "America/Sao_Paulo", now), company.recurrence);
}

/**
 * Settings › Empresas (super users, spec §2): every company, searchable, rows coloured by days to the due
 * date; add, edit, '+ Vencimento', activate/deactivate, its settings, delete (naming the company).
 */
export function CompaniesTab() {
  const { t } = useTranslation();
  const theme = useTheme();
  const { user } = useSession();
  const search = useListSearch();
  const list = usePagedList(useCompaniesList(search.searchParam), (page) => page.companies);
  const update = useUpdateCompany();
  const remove = useDeleteCompany();
  const dialog = useRecordDialog<CompanyDTO>();
  const [settingsOf, setSettingsOf] = useState<CompanyDTO | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);

  const change = async (company: CompanyDTO, body: { dueDate?: string; status?: boolean }, success: string) => {
    setBusyId(company.id);
    try {
      await withSpecFailure(() => update.mutateAsync({ id: company.id, body }), t("companies.toasts.saveFailed"));
      enqueueSnackbar(success, { variant: "success" });
    } catch (err) {
      toastError(err);
    } finally {
      setBusyId(null);
    }
  };

  const extend = (company: CompanyDTO) => {
    const dueDate = nextDueDate(company);
    void change(company, { dueDate }, t("companies.toasts.extended", { name: company.name, date: formatDate(dueDate) }));
  };

  return (
    <ListPage
      title={t("companies.title")}
      search={search}
      add={{ label: t("companies.buttons.add"), onClick: dialog.openNew }}
      list={list}
      testId="companies-scroll"
      rowProps={(company) => {
        const tone = companyTone(company);
        return {
          "data-testid": "company-row",
          "data-company-id": company.id,
          "data-tone": tone ?? "none",
          sx: tone ? { bgcolor: toneBackground(theme, tone), "&.MuiTableRow-hover:hover": { bgcolor: toneBackground(theme, tone) } } : undefined,
        };
      }}
      columns={[
        { header: t("companies.table.name"), cell: (c) => c.name },
        { header: t("companies.table.email"), cell: (c) => c.email },
        { header: t("companies.table.phone"), cell: (c) => c.phone || "—" },
        { header: t("companies.table.plan"), cell: (c) => c.plan?.name ?? "—" },
        {
          header: t("companies.table.status"),
          align: "center",
          cell: (c) => (
            <Chip
              size="small"
              color={c.status ? "success" : "default"}
              label={c.status ? t("companies.status.active") : t("companies.status.inactive")}
            />
          ),
        },
        {
          header: t("companies.table.dueDate"),
          align: "center",
          cellProps: { "data-testid": "company-due-date" },
          cell: (c) => (c.dueDate ? formatDate(c.dueDate) : "—"),
        },
        { header: t("companies.table.recurrence"), align: "center", cell: (c) => t(`companies.recurrence.${c.recurrence}`) },
      ]}
      rowActions={{
        header: t("companies.table.actions"),
        actions: (company) => {
          const busy = busyId === company.id;
          return [
            { kind: "edit", label: t("companies.actions.edit", { name: company.name }), onClick: () => dialog.openEdit(company) },
            {
              label: t("companies.actions.extend", { name: company.name }),
              tooltip: t("companies.actions.extendTooltip", { date: formatDate(nextDueDate(company)) }),
              icon: <EventRepeat fontSize="small" color={busy ? "disabled" : "primary"} />,
              onClick: () => !busy && extend(company),
            },
            {
              label: company.status
                ? t("companies.actions.deactivate", { name: company.name })
                : t("companies.actions.activate", { name: company.name }),
              tooltip: company.status ? t("companies.actions.deactivateTooltip") : t("companies.actions.activateTooltip"),
              icon: company.status ? <ToggleOn fontSize="small" color="success" /> : <ToggleOffOutlined fontSize="small" />,
              onClick: () =>
                !busy &&
                void change(
                  company,
                  { status: !company.status },
                  company.status
                    ? t("companies.toasts.deactivated", { name: company.name })
                    : t("companies.toasts.activated", { name: company.name }),
                ),
            },
            {
              label: t("companies.actions.settings", { name: company.name }),
              tooltip: t("companies.actions.settingsTooltip"),
              icon: <TuneOutlined fontSize="small" />,
              onClick: () => setSettingsOf(company),
            },
            // The super user's own company holds the super user: not deletable (the server refuses too).
            company.id !== user?.companyId && { kind: "delete", label: t("companies.actions.delete", { name: company.name }) },
          ];
        },
      }}
      deletion={{
        title: (company) => t("companies.confirmation.title", { name: company.name }),
        message: t("companies.confirmation.message"),
        run: (company) => withSpecFailure(() => remove.mutateAsync(company.id), t("companies.toasts.deleteFailed")),
        successMessage: t("companies.toasts.deleted"),
      }}
      empty={{ title: t("companies.empty") }}
    >
      <CompanyModal open={dialog.open} company={dialog.record} onClose={dialog.close} />
      <CompanySettingsDialog company={settingsOf} onClose={() => setSettingsOf(null)} />
    </ListPage>
  );
}
