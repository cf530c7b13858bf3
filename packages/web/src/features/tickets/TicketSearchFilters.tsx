import type { TagDTO, UserSimpleDTO } from "@balcao/shared";
import { Autocomplete, Box, Chip, TextField } from "@mui/material";
import { useTranslation } from "react-i18next";
import { readableTextOn } from "../../app/contrast";

interface TicketSearchFiltersProps {
  tags: TagDTO[];
  tagsFailed: boolean;
  tagIds: number[];
  onTagIds: (ids: number[]) => void;
  /** The user filter, for who may filter by user; undefined hides it. */
  users?: UserSimpleDTO[];
  userIds: number[];
  onUserIds: (ids: number[]) => void;
}

/**
 * The search tab's tag and user filters (TicketsManager), a chunk of its own (issue 20): MUI's Autocomplete is not
 * needed to show the tickets page, whose first tab is the open tickets.
 */
export function TicketSearchFilters({ tags, tagsFailed, tagIds, onTagIds, users, userIds, onUserIds }: TicketSearchFiltersProps) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 1, px: 1, pb: 1 }}>
      <Autocomplete
        multiple
        size="small"
        options={tags}
        getOptionLabel={(o) => o.name}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        value={tags.filter((tag) => tagIds.includes(tag.id))}
        onChange={(_e, value) => onTagIds(value.map((v) => v.id))}
        noOptionsText={tagsFailed ? t("tickets.search.tagsUnavailable") : t("tickets.search.noTags")}
        renderValue={(value, getItemProps) =>
          value.map((tag, index) => {
            const { key, ...props } = getItemProps({ index });
            return <Chip key={key} size="small" label={tag.name} sx={{ bgcolor: tag.color, color: readableTextOn(tag.color) }} {...props} />;
          })
        }
        renderInput={(params) => <TextField {...params} label={t("tickets.search.tags")} />}
      />
      {users && (
        <Autocomplete
          multiple
          size="small"
          options={users}
          getOptionLabel={(o) => o.name}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          value={users.filter((u) => userIds.includes(u.id))}
          onChange={(_e, value) => onUserIds(value.map((v) => v.id))}
          renderInput={(params) => <TextField {...params} label={t("tickets.search.users")} />}
        />
      )}
    </Box>
  );
}
