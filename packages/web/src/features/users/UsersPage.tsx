import type { UserDTO } from "@balcao/shared";
import { useTranslation } from "react-i18next";
import { ListPage, useRecordDialog } from "../../components/list/ListPage";
import { useListSearch, usePagedList } from "../../components/list/useListData";
import { useDeleteUser, useUsersList } from "./api";
import { UserModal } from "./UserModal";

/** Users of the company (spec §2): search (500 ms debounce, any length), add, edit, delete, infinite scroll. */
export default function UsersPage() {
  const { t } = useTranslation();
  const search = useListSearch();
  const list = usePagedList(useUsersList(search.searchParam), (page) => page.users);
  const deleteUser = useDeleteUser();
  const dialog = useRecordDialog<UserDTO>();

  return (
    <ListPage
      title={t("users.title")}
      search={search}
      add={{ label: t("users.buttons.add"), onClick: dialog.openNew }}
      list={list}
      testId="users-scroll"
      columns={[
        { header: t("users.table.name"), cell: (user) => user.name },
        { header: t("users.table.email"), cell: (user) => user.email },
        { header: t("users.table.profile"), align: "center", cell: (user) => t(`users.profiles.${user.profile}`) },
      ]}
      rowActions={{
        header: t("users.table.actions"),
        actions: (user) => [
          { kind: "edit", label: t("users.actions.edit", { name: user.name }), onClick: () => dialog.openEdit(user) },
          { kind: "delete", label: t("users.actions.delete", { name: user.name }) },
        ],
      }}
      deletion={{
        title: (user) => t("users.confirmationModal.deleteTitle", { name: user.name }),
        message: t("users.confirmationModal.deleteMessage"),
        run: (user) => deleteUser.mutateAsync(user.id),
        successMessage: t("users.toasts.deleted"),
      }}
      empty={{ title: t("users.empty") }}
    >
      <UserModal open={dialog.open} user={dialog.record} onClose={dialog.close} />
    </ListPage>
  );
}
