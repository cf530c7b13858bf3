import type { LoginBody, UserDTO } from "@balcao/shared";
import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent, type MouseEvent, type ReactNode } from "react";
import { ApiError } from "../../api/client";
import { formatCalendarDate } from "../../app/calendarDate";
import { validationKeyOf } from "../../components/validationKeys";
import { readLocalStorage } from "../../hooks/useLocalStorage";
import "./LoginPage.css";

/*
 * The login page with React alone (issue 20): no MUI, emotion, router, react-query, the app's toasts or i18next in its
 * imports, so the login page shows after ~70 KB of gzipped JavaScript instead of 275 KB. Before the app loads it
 * runs in the login shell (app/loginShell.tsx); inside the app, behind the route /login (LoginRoute.tsx). Each
 * gives it the texts, the login call, the toasts and the navigation of its world. Plain CSS (LoginPage.css)
 * draws the look of the app's theme (AuthLayout: card, avatar, outlined fields, contained button).
 */

type Field = "email" | "password";
type Values = Record<Field, string>;
/** Field messages as the schema or the server gave them; translated when shown. */
type FieldErrors = Partial<Record<Field, string>>;

export interface LoginPageProps {
  /** A text of the interface language (i18next's t in the app, the shell's own translator before it). */
  t: (key: string, values?: Record<string, unknown>) => string;
  /** The BCP 47 locale of the interface language (dates in messages). */
  locale: string;
  /** The toast text of a failed login (spec §8): the app's errorText, or the shell's, which loads the catalogue. */
  describeError: (err: unknown) => string | Promise<string>;
  /** Shows an error toast. */
  notify: (message: string) => void;
  /** POST /auth/login, keeping the session; resolves with the user. */
  login: (body: LoginBody) => Promise<UserDTO>;
  /** Takes the user where a login leads (the button keeps its spinner until this settles). */
  onLoggedIn: (user: UserDTO) => void | Promise<void>;
  /** Follows the link to the sign-up page. */
  onNavigate: (path: string) => void;
}

// The fields show before zod's schema code, which follows right after the first render (issue 20).
const loadLoginBody = () => import("./loginSchema").then((module) => module.loginBody);

type Validation = { ok: true; body: LoginBody } | { ok: false; errors: FieldErrors };

/** The shared login schema over the values: the parsed body, or each field's first message (as react-hook-form). */
async function validate(values: Values): Promise<Validation> {
  const result = (await loadLoginBody()).safeParse(values);
  if (result.success) return { ok: true, body: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if ((field === "email" || field === "password") && !errors[field]) errors[field] = issue.message;
  }
  return { ok: false, errors };
}

/** The fields a server's 400 answer names (`issues[].path`), as useZodForm's applyServerErrors does. */
function serverFieldErrors(err: unknown): FieldErrors {
  const errors: FieldErrors = {};
  if (!(err instanceof ApiError)) return errors;
  for (const issue of err.body.issues ?? []) {
    const field = String(issue.path ?? "").split(".")[0];
    if ((field === "email" || field === "password") && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

const FIELDS: Field[] = ["email", "password"];

export default function LoginPage({ t, locale, describeError, notify, login, onLoggedIn, onNavigate }: LoginPageProps) {
  const [values, setValues] = useState<Values>({ email: "", password: "" });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const submitted = useRef(false);
  const running = useRef(false);
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});
  // The theme the app stores (app/theme.tsx, `theme` in localStorage).
  const [dark] = useState(() => readLocalStorage<string>("theme", "light") === "dark");

  useEffect(() => void loadLoginBody().catch(() => undefined), []);

  const focusFirst = (marked: FieldErrors) => inputs.current[FIELDS.find((field) => marked[field]) ?? "email"]?.focus();

  const onChange = (field: Field) => (event: ChangeEvent<HTMLInputElement>) => {
    const next = { ...values, [field]: event.target.value };
    setValues(next);
    // After a first submit each change validates its field again (react-hook-form's reValidateMode onChange).
    if (submitted.current)
      void validate(next).then((result) => setErrors((current) => ({ ...current, [field]: result.ok ? undefined : result.errors[field] })));
  };

  const errorMessage = async (err: unknown): Promise<string> => {
    if (err instanceof ApiError && err.code === "ERR_SUBSCRIPTION_EXPIRED") {
      const dueDate = err.body.meta?.dueDate;
      return t("auth.subscriptionExpired", { date: dueDate ? formatCalendarDate(String(dueDate), locale) : "" });
    }
    return describeError(err);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (running.current) return;
    running.current = true;
    submitted.current = true;
    setBusy(true);
    try {
      const result = await validate(values);
      if (!result.ok) {
        setErrors(result.errors);
        focusFirst(result.errors);
        return;
      }
      setErrors({});
      try {
        await onLoggedIn(await login(result.body));
      } catch (err) {
        const marked = serverFieldErrors(err);
        if (Object.keys(marked).length > 0) {
          setErrors(marked);
          focusFirst(marked);
        }
        notify(await errorMessage(err));
      }
    } catch (err) {
      // The schema's chunk did not download: say so, the next submit tries again.
      notify(await describeError(err));
    } finally {
      running.current = false;
      setBusy(false);
    }
  };

  const followLink = (event: MouseEvent<HTMLAnchorElement>) => {
    // A plain click stays in the app; a new tab or window (modifier keys, middle button) is the browser's.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onNavigate("/signup");
  };

  const fieldText = (field: Field) => {
    const message = errors[field];
    if (!message) return undefined;
    const key = validationKeyOf(message);
    return key ? t(key) : message;
  };

  return (
    <main className={`balcao-login${dark ? " balcao-login--dark" : ""}`}>
      <div className="balcao-login__container">
        <div className="balcao-login__card">
          <div className="balcao-login__avatar">
            <SupportAgentIcon />
          </div>
          <p className="balcao-login__brand">{t("app.name")}</p>
          <h1 className="balcao-login__title">{t("login.title")}</h1>
          <form className="balcao-login__form" noValidate onSubmit={(event) => void onSubmit(event)}>
            <TextField
              label={t("login.form.email")}
              type="email"
              name="email"
              autoComplete="email"
              autoFocus
              value={values.email}
              onChange={onChange("email")}
              error={fieldText("email")}
              inputRef={(element) => void (inputs.current.email = element)}
            />
            <TextField
              label={t("login.form.password")}
              type="password"
              name="password"
              autoComplete="current-password"
              value={values.password}
              onChange={onChange("password")}
              error={fieldText("password")}
              inputRef={(element) => void (inputs.current.password = element)}
            />
            <button type="submit" className="balcao-login__submit" disabled={busy}>
              {busy ? <Spinner label={t("common.loading")} /> : t("login.buttons.submit")}
            </button>
            <a className="balcao-login__link" href="/signup" onClick={followLink}>
              {t("login.buttons.register")}
            </a>
          </form>
        </div>
      </div>
    </main>
  );
}

interface TextFieldProps {
  label: string;
  type: string;
  name: Field;
  autoComplete: string;
  autoFocus?: boolean;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  /** The translated message under the field; the field is marked invalid while there is one. */
  error?: string;
  inputRef: (element: HTMLInputElement | null) => void;
}

/** An outlined text field as MUI draws it: the label inside the box, moving onto its border when focused or filled. */
function TextField({ label, error, inputRef, ...input }: TextFieldProps) {
  const id = useId();
  const helperId = `${id}-helper-text`;
  return (
    <div className={`balcao-login__field${error ? " balcao-login__field--error" : ""}${input.value ? " balcao-login__field--filled" : ""}`}>
      <label className="balcao-login__label" htmlFor={id}>
        {label}
      </label>
      <div className="balcao-login__box">
        <input
          {...input}
          id={id}
          ref={inputRef}
          className="balcao-login__input"
          aria-invalid={error ? true : false}
          aria-describedby={error ? helperId : undefined}
        />
        <fieldset className="balcao-login__outline" aria-hidden="true">
          <legend>
            <span>{label}</span>
          </legend>
        </fieldset>
      </div>
      {error && (
        <p className="balcao-login__helper" id={helperId}>
          {error}
        </p>
      )}
    </div>
  );
}

/** The button's busy state: an indeterminate circular progress, as the app's. */
function Spinner({ label }: { label: string }): ReactNode {
  return (
    <span className="balcao-login__spinner" role="progressbar" aria-label={label}>
      <svg viewBox="22 22 44 44" aria-hidden="true">
        <circle cx="44" cy="44" r="20.2" fill="none" strokeWidth="3.6" />
      </svg>
    </span>
  );
}

/** MUI's SupportAgentOutlined icon (the app's avatar), inlined. */
function SupportAgentIcon() {
  return (
    <svg className="balcao-login__icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M21 12.22C21 6.73 16.74 3 12 3c-4.69 0-9 3.65-9 9.28-.6.34-1 .98-1 1.72v2c0 1.1.9 2 2 2h1v-6.1c0-3.87 3.13-7 7-7s7 3.13 7 7V19h-8v2h8c1.1 0 2-.9 2-2v-1.22c.59-.31 1-.92 1-1.64v-2.3c0-.7-.41-1.31-1-1.62" />
      <circle cx="9" cy="13" r="1" />
      <circle cx="15" cy="13" r="1" />
      <path d="M18 11.03C17.52 8.18 15.04 6 12.05 6c-3.03 0-6.29 2.51-6.03 6.45 2.47-1.01 4.33-3.21 4.86-5.89 1.31 2.63 4 4.44 7.12 4.47" />
    </svg>
  );
}
