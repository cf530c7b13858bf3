import { isAdmin, type TagDTO } from "@balcao/shared";
import { Box, Button, Chip, IconButton, Table, TableBody, TableCell, TableHead, TableRow, Tooltip, useTheme } from "@mui/material";
import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import EditOutlined from "@mui/icons-material/EditOutlined";
import ViewKanbanOutlined from "@mui/icons-material/ViewKanbanOutlined";
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
import { useSession } from "../auth/SessionProvider";
import { useDeleteTag, useTagsList, useTagsRealtime } from "./api";
import { TagModal } from "./TagModal";

/** A chip in the tag's colour, with a readable text colour. */
export function TagChip({ tag }: { tag: Pick<TagDTO, "name" | "color"> }) {
  const theme = useTheme();
  let text: string = "#fff";
  try {
    text = theme.palette.getContrastText(tag.color);
  } catch {
    // not a colour MUI can read: keep white
  }
  return <Chip label={tag.name} size="small" sx={{ bgcolor: tag.color, color: text, fontWeight: 500 }} />;
}

/** Tags of the company (spec §2): chips with name, colour and ticket count; search; add; edit and delete for admins. */
export default function TagsPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  // PUT and DELETE /tags/:id are admin-only (docs/api.md); anyone adds.
  const canManage = isAdmin(user);
  const [search, setSearch] = useState("");
  const searchParam = useDebouncedValue(search.trim().toLowerCase(), 500);
  const list = useTagsList(searchParam);
  const deleteTag = useDeleteTag();
  useTagsRealtime();
  const [modal, setModal] = useState<{ open: boolean; tag: TagDTO | null }>({ open: false, tag: null });
  const [toDelete, setToDelete] = useState<TagDTO | null>(null);

  const tags = useMemo(() => uniqueById((list.data?.pages ?? []).map((page) => page.tags)), [list.data]);

  const confirmDelete = async () => {
    if (!toDelete) return;
    try {
      await deleteTag.mutateAsync(toDelete.id);
      enqueueSnackbar(t("tags.toasts.deleted"), { variant: "success" });
    } catch (err) {
      toastError(err);
    }
    setToDelete(null);
  };

  return (
    <Box sx={{ display: "flex", flexDirection: "column", height: "100%" }}>
      <PageHeader title={t("tags.title")}>
        <SearchField value={search} onChange={setSearch} />
        <Button variant="contained" onClick={() => setModal({ open: true, tag: null })}>
          {t("tags.buttons.add")}
        </Button>
      </PageHeader>

      <InfiniteScrollArea hasMore={!!list.hasNextPage} loading={list.isFetching} onLoadMore={() => void list.fetchNextPage()} data-testid="tags-scroll">
        <Table size="small" stickyHeader aria-label={t("tags.title")}>
          <TableHead>
            <TableRow>
              <TableCell>{t("tags.table.name")}</TableCell>
              <TableCell align="center">{t("tags.table.tickets")}</TableCell>
              <TableCell align="center">{t("tags.table.kanban")}</TableCell>
              {canManage && <TableCell align="center">{t("tags.table.actions")}</TableCell>}
            </TableRow>
          </TableHead>
          <TableBody>
            {tags.map((tag) => (
              <TableRow key={tag.id} hover data-testid="tag-row">
                <TableCell>
                  <TagChip tag={tag} />
                </TableCell>
                <TableCell align="center" data-testid="tag-tickets-count">
                  {(tag.ticketsCount ?? 0).toLocaleString("pt-BR")}
                </TableCell>
                <TableCell align="center">
                  {tag.kanban === 1 && <ViewKanbanOutlined fontSize="small" color="action" titleAccess={t("tags.kanbanLane")} />}
                </TableCell>
                {canManage && (
                  <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
                    <Tooltip title={t("common.edit")}>
                      <IconButton size="small" aria-label={t("tags.actions.edit", { name: tag.name })} onClick={() => setModal({ open: true, tag })}>
                        <EditOutlined fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t("common.delete")}>
                      <IconButton size="small" aria-label={t("tags.actions.delete", { name: tag.name })} onClick={() => setToDelete(tag)}>
                        <DeleteOutline fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </TableCell>
                )}
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {list.isFetching && <LoadingState />}
        {list.isError && <EmptyState title={t("errors.listFailed")} />}
        {!list.isFetching && !list.isError && tags.length === 0 && <EmptyState title={t("tags.empty")} />}
      </InfiniteScrollArea>

      <TagModal open={modal.open} tag={modal.tag} onClose={() => setModal({ open: false, tag: null })} />
      <ConfirmationDialog
        open={!!toDelete}
        title={t("tags.confirmationModal.deleteTitle", { name: toDelete?.name ?? "" })}
        onClose={() => setToDelete(null)}
        onConfirm={() => void confirmDelete()}
        confirmLabel={t("common.delete")}
        loading={deleteTag.isPending}
      >
        {t("tags.confirmationModal.deleteMessage")}
      </ConfirmationDialog>
    </Box>
  );
}
