import { IconButton, Menu, MenuItem, Tooltip } from "@mui/material";
import AccountCircle from "@mui/icons-material/AccountCircle";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSession } from "../../features/auth/SessionProvider";
import { lazyWhenOpened } from "../../components/lazyWhenOpened";
import { useLanguageMenuItems } from "./LanguageMenu";

// Downloaded when first opened (issue 20), not with every page of the layout.
const UserModal = lazyWhenOpened(() => import("../../features/users/UserModal").then((module) => module.UserModal));

/** Profile menu: edit one's own user, the interface language (issue 16), log out. */
export function ProfileMenu() {
  const { t } = useTranslation();
  const { user, logout } = useSession();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [modalOpen, setModalOpen] = useState(false);
  const languageItems = useLanguageMenuItems(() => setAnchor(null));
  return (
    <>
      <Tooltip title={t("topBar.profile")}>
        <IconButton color="inherit" aria-label={t("topBar.profile")} aria-haspopup="menu" onClick={(e) => setAnchor(e.currentTarget)}>
          <AccountCircle />
        </IconButton>
      </Tooltip>
      <Menu
        anchorEl={anchor}
        open={!!anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
        transformOrigin={{ vertical: "top", horizontal: "right" }}
      >
        <MenuItem
          onClick={() => {
            setAnchor(null);
            setModalOpen(true);
          }}
        >
          {t("topBar.myProfile")}
        </MenuItem>
        {languageItems}
        <MenuItem
          onClick={() => {
            setAnchor(null);
            void logout();
          }}
        >
          {t("topBar.logout")}
        </MenuItem>
      </Menu>
      <UserModal open={modalOpen} user={user} onClose={() => setModalOpen(false)} />
    </>
  );
}
