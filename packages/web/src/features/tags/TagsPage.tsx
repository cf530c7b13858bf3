import { can, isAdmin, type TagDTO } from "@balcao/shared";
import { Chip, useTheme } from "@mui/material";
import ViewKanbanOutlined from "@mui/icons-material/ViewKanbanOutlined";
import { useTranslation } from "react-i18next";
import { ListPage, useRecordDialog } from "../../components/list/ListPage";
import { useListSearch, usePagedList } from "../../components/list/useListData";
import { useSession } from "../auth/SessionProvider";
import { useDeleteTag, useTagsList, useTagsRealtime } from "./api";
import { TagModal } from "./TagModal";
import { formatNumber } from "../../app/format";

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

/** Tags of the company (spec §2): chips with name, colour and ticket count; search; add; edit (admins and supervisors) and delete (admins). */
export default function TagsPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  // PUT /tags/:id is for admins and supervisors (the Kanban switch), DELETE for admins (docs/api.md); anyone adds.
  const canEdit = can(user, "tag-modal:kanban");
  const canDelete = isAdmin(user);
  const search = useListSearch();
  const list = usePagedList(useTagsList(search.searchParam), (page) => page.tags);
  const deleteTag = useDeleteTag();
  useTagsRealtime();
  const dialog = useRecordDialog<TagDTO>();

  return (
    <ListPage
      title={t("tags.title")}
      search={search}
      add={{ label: t("tags.buttons.add"), onClick: dialog.openNew }}
      list={list}
      testId="tags-scroll"
      rowProps={() => ({ "data-testid": "tag-row" })}
      columns={[
        { header: t("tags.table.name"), cell: (tag) => <TagChip tag={tag} /> },
        {
          header: t("tags.table.tickets"),
          align: "center",
          cellProps: { "data-testid": "tag-tickets-count" },
          cell: (tag) => formatNumber(tag.ticketsCount ?? 0),
        },
        {
          header: t("tags.table.kanban"),
          align: "center",
          cell: (tag) => tag.kanban === 1 && <ViewKanbanOutlined fontSize="small" color="action" titleAccess={t("tags.kanbanLane")} />,
        },
      ]}
      rowActions={
        canEdit
          ? {
              header: t("tags.table.actions"),
              actions: (tag) => [
                { kind: "edit", label: t("tags.actions.edit", { name: tag.name }), onClick: () => dialog.openEdit(tag) },
                canDelete && { kind: "delete", label: t("tags.actions.delete", { name: tag.name }) },
              ],
            }
          : undefined
      }
      deletion={{
        title: (tag) => t("tags.confirmationModal.deleteTitle", { name: tag.name }),
        message: t("tags.confirmationModal.deleteMessage"),
        run: (tag) => deleteTag.mutateAsync(tag.id),
        successMessage: t("tags.toasts.deleted"),
      }}
      empty={{ title: t("tags.empty") }}
    >
      <TagModal open={dialog.open} tag={dialog.record} onClose={dialog.close} />
    </ListPage>
  );
}
