/**
 * ListPage — the page of a domain's records: header (title, search, extra buttons, add), a table that loads
 * the next page near its end, loading / error / empty states, row actions by permission and the delete
 * confirmation.
 *
 *   const search = useListSearch();
 *   const list = usePagedList(useTagsList(search.searchParam), (page) => page.tags);
 *   const dialog = useRecordDialog<TagDTO>();
 *   <ListPage
 *     title={t("tags.title")}
 *     search={search}                                              // omit: no search box
 *     add={{ label: t("tags.buttons.add"), onClick: dialog.openNew }} // omit (or undefined) when not allowed
 *     list={list}
 *     columns={[{ header: t("tags.table.name"), cell: (tag) => <TagChip tag={tag} /> }, …]}
 *     rowActions={canManage ? {
 *       header: t("tags.table.actions"),
 *       actions: (tag) => [
 *         { kind: "edit", label: t("tags.actions.edit", { name: tag.name }), onClick: () => dialog.openEdit(tag) },
 *         { kind: "delete", label: t("tags.actions.delete", { name: tag.name }) },   // opens `deletion`
 *       ],
 *     } : undefined}
 *     deletion={{ title: (tag) => t("…deleteTitle", { name: tag.name }), message: t("…deleteMessage"),
 *                 run: (tag) => deleteTag.mutateAsync(tag.id), successMessage: t("tags.toasts.deleted") }}
 *     empty={{ title: t("tags.empty") }}
 *   >
 *     <TagModal open={dialog.open} tag={dialog.record} onClose={dialog.close} />   // dialogs of the page
 *   </ListPage>
 *
 * Row actions: `kind: "edit" | "delete"` get the standard icon and tooltip; any other action passes `icon`
 * and `tooltip`. Falsy entries are skipped, so `canDelete && { kind: "delete", … }` hides an action by
 * permission; omit `rowActions` to drop the column. The table's accessible name is the title.
 * RowActionButtons renders the same buttons anywhere else (e.g. a tree of options).
 */
import {
  Box,
  Button,
  IconButton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  type TableCellProps,
  type TableRowProps,
} from "@mui/material";
import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import EditOutlined from "@mui/icons-material/EditOutlined";
import { enqueueSnackbar } from "../toasts";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmationDialog } from "../ConfirmationDialog";
import { EmptyState } from "../EmptyState";
import { InfiniteScrollArea } from "../InfiniteScrollArea";
import { LoadingState } from "../LoadingState";
import { PageHeader } from "../PageHeader";
import { SearchField } from "../SearchField";
import { toastError } from "../toastError";
import type { ListSearch, ListState } from "./useListData";

export interface ListColumn<T> {
  header: ReactNode;
  cell: (row: T) => ReactNode;
  align?: TableCellProps["align"];
  /** Extra props of the header cell (e.g. padding). */
  headerProps?: TableCellProps;
  /** Extra props of every body cell of the column (sx, padding, data-testid). */
  cellProps?: TableCellProps & { "data-testid"?: string };
}

export type RowAction =
  | { kind: "edit"; label: string; onClick: () => void }
  /** Asks the page's `deletion` confirmation for the row. */
  | { kind: "delete"; label: string }
  | { kind?: undefined; label: string; tooltip: string; icon: ReactNode; onClick: () => void };

export interface RowActions<T> {
  header: ReactNode;
  /** The row's actions, left to right; falsy entries (no permission) are skipped. */
  actions: (row: T) => (RowAction | false | null | undefined)[];
}

export interface Deletion<T> {
  title: (row: T) => string;
  message: ReactNode;
  run: (row: T) => Promise<unknown>;
  successMessage: string;
}

interface ListPageProps<T extends { id: number }> {
  title: string;
  search?: Pick<ListSearch, "search" | "setSearch">;
  /** Buttons between the search box and the add button. */
  headerActions?: ReactNode;
  add?: { label: string; onClick: () => void };
  list: ListState<T>;
  columns: ListColumn<T>[];
  rowActions?: RowActions<T>;
  deletion?: Deletion<T>;
  /** `action`: what to do next (a button or link), shown under the texts. */
  empty: { title: string; description?: string; action?: ReactNode };
  /** Shown under the failure message (e.g. a retry button). */
  errorAction?: ReactNode;
  /** Extra props of each row (data-* attributes for tests and styling). */
  rowProps?: (row: T) => TableRowProps & Record<`data-${string}`, string | number>;
  /** data-testid of the scrolling area. */
  testId?: string;
  /** The page's dialogs. */
  children?: ReactNode;
}

export function ListPage<T extends { id: number }>(props: ListPageProps<T>) {
  const { title, search, headerActions, add, list, columns, rowActions, deletion, empty, errorAction, rowProps, testId, children } = props;
  const { t } = useTranslation();
  // The row stays after closing so the dialog keeps its text while it fades out.
  const [toDelete, setToDelete] = useState<{ row: T; open: boolean } | null>(null);
  const [deleting, setDeleting] = useState(false);
  const closeDelete = () => setToDelete((current) => current && { ...current, open: false });

  const confirmDelete = async () => {
    if (!toDelete || !deletion) return;
    setDeleting(true);
    try {
      await deletion.run(toDelete.row);
      enqueueSnackbar(deletion.successMessage, { variant: "success" });
    } catch (err) {
      toastError(err);
    }
    setDeleting(false);
    closeDelete();
  };

  return (
    <Box sx={{ display: "flex", flexDirection: "column", height: "100%" }}>
      <PageHeader title={title}>
        {search && <SearchField value={search.search} onChange={search.setSearch} />}
        {headerActions}
        {add && (
          <Button variant="contained" onClick={add.onClick}>
            {add.label}
          </Button>
        )}
      </PageHeader>

      <InfiniteScrollArea hasMore={list.hasMore} loading={list.loading} onLoadMore={list.loadMore} data-testid={testId}>
        <Table size="small" stickyHeader aria-label={title}>
          <TableHead>
            <TableRow>
              {columns.map((column, index) => (
                <TableCell key={index} align={column.align} {...column.headerProps}>
                  {column.header}
                </TableCell>
              ))}
              {rowActions && <TableCell align="center">{rowActions.header}</TableCell>}
            </TableRow>
          </TableHead>
          <TableBody>
            {list.items.map((row) => (
              <TableRow key={row.id} hover {...rowProps?.(row)}>
                {columns.map((column, index) => (
                  <TableCell key={index} align={column.align} {...column.cellProps}>
                    {column.cell(row)}
                  </TableCell>
                ))}
                {rowActions && (
                  <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
                    <RowActionButtons actions={rowActions.actions(row)} onDelete={() => setToDelete({ row, open: true })} />
                  </TableCell>
                )}
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {list.loading && <LoadingState />}
        {list.error && <EmptyState title={t("errors.listFailed")} action={errorAction} />}
        {!list.loading && !list.error && list.items.length === 0 && (
          <EmptyState title={empty.title} description={empty.description} action={empty.action} />
        )}
      </InfiniteScrollArea>

      {children}
      {deletion && (
        <ConfirmationDialog
          open={!!toDelete?.open}
          title={toDelete ? deletion.title(toDelete.row) : ""}
          onClose={closeDelete}
          onConfirm={() => void confirmDelete()}
          confirmLabel={t("common.delete")}
          loading={deleting}
        >
          {deletion.message}
        </ConfirmationDialog>
      )}
    </Box>
  );
}

/** Icon buttons with tooltips (falsy entries skipped); also for action rows outside a ListPage table. */
export function RowActionButtons({ actions, onDelete }: { actions: (RowAction | false | null | undefined)[]; onDelete?: () => void }) {
  const { t } = useTranslation();
  return actions.map((action, index) => {
    if (!action) return null;
    const [tooltip, icon, onClick] =
      action.kind === "edit"
        ? [t("common.edit"), <EditOutlined fontSize="small" />, action.onClick]
        : action.kind === "delete"
          ? [t("common.delete"), <DeleteOutline fontSize="small" />, onDelete]
          : [action.tooltip, action.icon, action.onClick];
    return (
      <Tooltip key={index} title={tooltip}>
        <IconButton size="small" aria-label={action.label} onClick={onClick}>
          {icon}
        </IconButton>
      </Tooltip>
    );
  });
}

/** Open/close state of a page's add/edit dialog: `record` is null when adding. */
export function useRecordDialog<T>() {
  const [state, setState] = useState<{ open: boolean; record: T | null }>({ open: false, record: null });
  return {
    open: state.open,
    record: state.record,
    openNew: () => setState({ open: true, record: null }),
    openEdit: (record: T) => setState({ open: true, record }),
    close: () => setState({ open: false, record: null }),
  };
}
