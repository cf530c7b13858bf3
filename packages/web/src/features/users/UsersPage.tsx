import type { UserDTO } from "@balcao/shared";
import { Box, Button, IconButton, Table, TableBody, TableCell, TableHead, TableRow, Tooltip } from "@mui/material";
import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import EditOutlined from "@mui/icons-material/EditOutlined";
import { enqueueSnackbar } from "notistack";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { EmptyState } from "../../components/EmptyState";
import { InfiniteScrollArea } from "../../components/InfiniteScrollArea";
import { LoadingState } from "../../components/LoadingState";
import { uniqueById } from "../../components/uniqueById";
import { SearchField } from "../../components/SearchField";
import { PageHeader } from "../../components/PageHeader";
import { toastError } from "../../components/toastError";
import { useDebouncedValue } from "../../hooks/useDebouncedValue";
import { useDeleteUser, useUsersList } from "./api";
import { UserModal } from "./UserModal";

/** Users of the company (spec §2): search (500 ms debounce, any length), add, edit, delete, infinite scroll. */
export default function UsersPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState("");
  const searchParam = useDebouncedValue(search.trim().toLowerCase(), 500);
  const list = useUsersList(searchParam);
  const deleteUser = useDeleteUser();
  const [modal, setModal] = useState<{ open: boolean; user: UserDTO | null }>({ open: false, user: null });
  const [toDelete, setToDelete] = useState<UserDTO | null>(null);

  const users = useMemo(() => uniqueById((list.data?.pages ?? []).map((page) => page.users)), [list.data]);

  const confirmDelete = async () => {
    if (!toDelete) return;
    try {
      await deleteUser.mutateAsync(toDelete.id);
      enqueueSnackbar(t("users.toasts.deleted"), { variant: "success" });
    } catch (err) {
      toastError(err);
    }
    setToDelete(null);
  };

  return (
    <Box sx={{ display: "flex", flexDirection: "column", height: "100%" }}>
      <PageHeader title={t("users.title")}>
        <SearchField value={search} onChange={setSearch} />
        <Button variant="contained" onClick={() => setModal({ open: true, user: null })}>
          {t("users.buttons.add")}
        </Button>
      </PageHeader>

      <InfiniteScrollArea hasMore={!!list.hasNextPage} loading={list.isFetching} onLoadMore={() => void list.fetchNextPage()} data-testid="users-scroll">
        <Table size="small" stickyHeader aria-label={t("users.title")}>
          <TableHead>
            <TableRow>
              <TableCell>{t("users.table.name")}</TableCell>
              <TableCell>{t("users.table.email")}</TableCell>
              <TableCell align="center">{t("users.table.profile")}</TableCell>
              <TableCell align="center">{t("users.table.actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {users.map((user) => (
              <TableRow key={user.id} hover>
                <TableCell>{user.name}</TableCell>
                <TableCell>{user.email}</TableCell>
                <TableCell align="center">{t(`users.profiles.${user.profile}`)}</TableCell>
                <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
                  <Tooltip title={t("common.edit")}>
                    <IconButton size="small" aria-label={t("users.actions.edit", { name: user.name })} onClick={() => setModal({ open: true, user })}>
                      <EditOutlined fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t("common.delete")}>
                    <IconButton size="small" aria-label={t("users.actions.delete", { name: user.name })} onClick={() => setToDelete(user)}>
                      <DeleteOutline fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {list.isFetching && <LoadingState />}
        {list.isError && <EmptyState title={t("errors.listFailed")} />}
        {!list.isFetching && !list.isError && users.length === 0 && <EmptyState title={t("users.empty")} />}
      </InfiniteScrollArea>

      <UserModal open={modal.open} user={modal.user} onClose={() => setModal({ open: false, user: null })} />
      <ConfirmationDialog
        open={!!toDelete}
        title={t("users.confirmationModal.deleteTitle", { name: toDelete?.name ?? "" })}
        onClose={() => setToDelete(null)}
        onConfirm={() => void confirmDelete()}
        confirmLabel={t("common.delete")}
        loading={deleteUser.isPending}
      >
        {t("users.confirmationModal.deleteMessage")}
      </ConfirmationDialog>
    </Box>
  );
}
