import { LANGUAGES, type Language, type UserDTO } from "@balcao/shared";
import { ListItemIcon, ListItemText, ListSubheader, MenuItem } from "@mui/material";
import Check from "@mui/icons-material/Check";
import { enqueueSnackbar } from "../../components/toasts";
import type { ReactElement } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../../api/client";
import { toastError } from "../../components/toastError";
import { useSession } from "../../features/auth/SessionProvider";
import { changeLanguage, currentLanguage } from "../i18n";

/** Each language is named in itself, so a reader of any language finds their own. */
const NAMES: Record<Language, string> = { pt: "Português", en: "English", es: "Español" };

/**
 * The language picker of the user menu (issue 16): switches the interface at once, remembers the choice in this
 * browser and stores it on the user (PUT /users/:id { language }), so it follows the user to other devices.
 * A hook returning the items, so they are direct children of the MUI Menu (keyboard navigation).
 */
export function useLanguageMenuItems(onPicked?: () => void): ReactElement[] {
  const { t } = useTranslation();
  const { user, setUser } = useSession();
  const active = currentLanguage();

  const pick = async (language: Language) => {
    onPicked?.();
    if (language === active) return;
    await changeLanguage(language);
    if (!user) return;
    try {
      setUser(await api.put<UserDTO>(`/users/${user.id}`, { language }));
      enqueueSnackbar(t("topBar.languageSaved"), { variant: "success" });
    } catch (err) {
      toastError(err);
    }
  };

  return [
    <ListSubheader key="title" sx={{ lineHeight: "32px" }}>
      {t("topBar.language")}
    </ListSubheader>,
    ...LANGUAGES.map((language) => (
      <MenuItem key={language} role="menuitemradio" aria-checked={language === active} lang={language} onClick={() => void pick(language)}>
        <ListItemIcon>{language === active && <Check fontSize="small" />}</ListItemIcon>
        <ListItemText>{NAMES[language]}</ListItemText>
      </MenuItem>
    )),
  ];
}
