import { enqueueSnackbar } from "../../components/toasts";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { currentLocale } from "../../app/i18n";
import { errorText } from "../../components/toastError";
import { landingAfterLogin } from "./afterLogin";
import LoginPage from "./LoginPage";
import { useSession } from "./SessionProvider";

/**
 * The route /login inside the app (after a logout, an ended session, a stored token that no longer works):
 * the light login page with the app's texts, session, toasts and router.
 */
export default function LoginRoute() {
  const { t } = useTranslation();
  const { login } = useSession();
  const navigate = useNavigate();
  const translate = (key: string, values?: Record<string, unknown>) => t(key, values);
  return (
    <LoginPage
      t={translate}
      locale={currentLocale()}
      describeError={errorText}
      notify={(message) => enqueueSnackbar(message, { variant: "error" })}
      login={login}
      onLoggedIn={(user) => {
        const landing = landingAfterLogin(user, translate);
        if (landing.warning) enqueueSnackbar(landing.warning, { variant: "warning" });
        navigate(landing.path, { replace: true });
      }}
      onNavigate={(path) => navigate(path)}
    />
  );
}
