import { MOBILE_BREAKPOINT_PX, type ChatDTO } from "@balcao/shared";
import { Box, Button, Paper, Tab, Tabs, Typography, useMediaQuery } from "@mui/material";
import ForumOutlined from "@mui/icons-material/ForumOutlined";
import { enqueueSnackbar } from "../../components/toasts";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { EmptyState } from "../../components/EmptyState";
import { usePagedList, useListSearch } from "../../components/list/useListData";
import { useChat, useChatsList, useDeleteChat } from "./api";
import { ChatDialog } from "./ChatDialog";
import { ChatList } from "./ChatList";
import { ChatPane } from "./ChatPane";

type MobileTab = "chats" | "messages";

/**
 * /chats/:id? (spec §2): wide screens show the list beside the open chat; narrow screens (under 600 px) switch
 * between two tabs, Chats and Mensagens. Picking a chat opens it (and its tab on narrow screens).
 */
export default function ChatsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useParams();
  const chatId = params.id && /^\d+$/.test(params.id) ? Number(params.id) : null;
  const wide = useMediaQuery(`(min-width:${MOBILE_BREAKPOINT_PX}px)`, { noSsr: true });
  const [tab, setTab] = useState<MobileTab>(chatId ? "messages" : "chats");
  const search = useListSearch();
  const list = usePagedList(useChatsList(search.searchParam), (page) => page.records);
  const open = useChat(chatId);
  const [dialog, setDialog] = useState<{ chat: ChatDTO | null } | null>(null);
  const [toDelete, setToDelete] = useState<ChatDTO | null>(null);
  const remove = useDeleteChat();

  useEffect(() => {
    if (chatId) setTab("messages");
  }, [chatId]);

  const select = (chat: ChatDTO) => {
    navigate(`/chats/${chat.id}`);
    setTab("messages");
  };
  const close = () => {
    navigate("/chats");
    setTab("chats");
  };

  const confirmDelete = async () => {
    if (!toDelete) return;
    try {
      await remove.mutateAsync(toDelete.id);
      enqueueSnackbar(t("chats.toasts.deleted"), { variant: "success", autoHideDuration: 3000 });
      if (toDelete.id === chatId) close();
    } catch {
      // Spec §8: chat errors are silently ignored.
    } finally {
      setToDelete(null);
    }
  };

  const listPanel = (
    <ChatList
      list={list}
      search={search}
      selectedId={chatId}
      onSelect={select}
      onNew={() => setDialog({ chat: null })}
      onEdit={(chat) => setDialog({ chat })}
      onDelete={setToDelete}
    />
  );
  const pane = open.data ? (
    <ChatPane key={open.data.id} chat={open.data} onBack={wide ? undefined : () => setTab("chats")} onDeleted={close} />
  ) : (
    <Paper variant="outlined" sx={{ height: "100%", display: "flex", alignItems: "center", justifyContent: "center" }}>
      <EmptyState
        icon={<ForumOutlined sx={{ fontSize: 72, color: "primary.main" }} />}
        title={chatId && open.isError ? t("chats.pane.notFound") : t("chats.pane.select")}
        action={
          wide ? undefined : (
            <Button variant="contained" onClick={() => setTab("chats")}>
              {t("chats.pane.choose")}
            </Button>
          )
        }
      />
    </Paper>
  );

  return (
    <Box sx={{ display: "flex", flexDirection: "column", flex: 1, minHeight: 0, height: "100%" }} data-testid="chats-page">
      <Typography component="h1" variant="h6" sx={{ mb: 1 }}>
        {t("chats.title")}
      </Typography>
      {wide ? (
        <Box sx={{ display: "flex", gap: 1.5, flex: 1, minHeight: 0 }}>
          <Box sx={{ width: "33.333%", minWidth: 280, maxWidth: 460, minHeight: 0 }}>{listPanel}</Box>
          <Box sx={{ flex: 1, minWidth: 0, minHeight: 0 }}>{pane}</Box>
        </Box>
      ) : (
        <>
          <Tabs value={tab} onChange={(_e, v: MobileTab) => setTab(v)} variant="fullWidth" sx={{ borderBottom: 1, borderColor: "divider" }}>
            <Tab value="chats" label={t("chats.tabs.chats")} />
            <Tab value="messages" label={t("chats.tabs.messages")} />
          </Tabs>
          <Box sx={{ flex: 1, minHeight: 0, pt: 1 }}>{tab === "chats" ? listPanel : pane}</Box>
        </>
      )}
      <ChatDialog open={!!dialog} chat={dialog?.chat} onClose={() => setDialog(null)} onSaved={(chat) => !dialog?.chat && select(chat)} />
      <ConfirmationDialog
        open={!!toDelete}
        title={t("chats.confirmation.title", { title: toDelete?.title ?? "" })}
        onClose={() => setToDelete(null)}
        onConfirm={() => void confirmDelete()}
        loading={remove.isPending}
      >
        {t("chats.confirmation.message")}
      </ConfirmationDialog>
    </Box>
  );
}
