import CloseIcon from "@mui/icons-material/Close";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Slide from "@mui/material/Slide";
import { useEffect, useRef, useSyncExternalStore, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

/**
 * The app's toasts: short notices at the bottom right, at most MAX_TOASTS on screen (the oldest goes to make
 * room), each gone after its time unless the pointer or the keyboard focus is on it. `enqueueSnackbar` works from
 * anywhere (a mutation's callback, a socket handler), as notistack's did: this module took its place (issue 20:
 * notistack was 7 KB gzipped of every page; this is about 1 KB on top of MUI's Alert, which the pages already use).
 */
export type ToastVariant = "default" | "success" | "info" | "warning" | "error";
export type ToastKey = number;

export interface ToastOptions {
  variant?: ToastVariant;
  /** Milliseconds on screen; DEFAULT_TOAST_MS otherwise. */
  autoHideDuration?: number;
  /** Stays until the user closes it (a close button is shown). */
  persist?: boolean;
  /** Not shown again while the same text is on screen. */
  preventDuplicate?: boolean;
  /** A button beside the text (e.g. "Open"). */
  action?: (key: ToastKey) => ReactNode;
}

interface Toast extends ToastOptions {
  key: ToastKey;
  message: ReactNode;
  open: boolean;
}

export const MAX_TOASTS = 3;
export const DEFAULT_TOAST_MS = 3000;

/**
 * Backgrounds under white text that pass WCAG AA (4.5:1): notistack's defaults for info (#2196f3, 3.1:1), success
 * (3.3:1) and warning (2.2:1) did not, and a toast on screen while axe runs is reported as a violation.
 */
export const TOAST_BACKGROUNDS = { default: "#313131", success: "#2e7d32", info: "#01579b", warning: "#a84300", error: "#c62828" } as const;

let toasts: readonly Toast[] = [];
let nextKey = 1;
const listeners = new Set<() => void>();

function publish(next: readonly Toast[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Shows a toast; returns its key, or undefined when `preventDuplicate` found the same text on screen. */
export function enqueueSnackbar(message: ReactNode, options: ToastOptions = {}): ToastKey | undefined {
  const open = toasts.filter((toast) => toast.open);
  if (options.preventDuplicate && open.some((toast) => toast.message === message)) return undefined;
  const key = nextKey++;
  // Room for the new one: the oldest toast that would time out anyway, else the oldest.
  const leaving = open.length >= MAX_TOASTS ? (open.find((toast) => !toast.persist) ?? open[0]) : undefined;
  publish([...toasts.map((toast) => (toast === leaving ? { ...toast, open: false } : toast)), { ...options, key, message, open: true }]);
  return key;
}

/** Closes a toast (it slides out); every toast without a key. */
export function closeSnackbar(key?: ToastKey): void {
  publish(toasts.map((toast) => (key === undefined || toast.key === key ? { ...toast, open: false } : toast)));
}

/** Forgets every toast at once, with no exit (tests: each render of a page starts with none). */
export function clearToasts(): void {
  publish([]);
}

function removeToast(key: ToastKey): void {
  publish(toasts.filter((toast) => toast.key !== key));
}

function ToastItem({ toast }: { toast: Toast }) {
  const { t } = useTranslation();
  const remaining = useRef(toast.autoHideDuration ?? DEFAULT_TOAST_MS);
  const timer = useRef<{ id: ReturnType<typeof setTimeout>; started: number } | null>(null);
  const pause = () => {
    if (!timer.current) return;
    clearTimeout(timer.current.id);
    remaining.current -= Date.now() - timer.current.started;
    timer.current = null;
  };
  const resume = () => {
    if (toast.persist || !toast.open || timer.current) return;
    timer.current = { id: setTimeout(() => closeSnackbar(toast.key), Math.max(remaining.current, 0)), started: Date.now() };
  };
  useEffect(() => {
    resume();
    return pause;
    // The timer starts once per toast; hovering pauses and resumes it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [toast.open]);

  const variant = toast.variant ?? "default";
  const urgent = variant === "error" || variant === "warning";
  return (
    <Slide direction="left" in={toast.open} appear mountOnEnter unmountOnExit onExited={() => removeToast(toast.key)}>
      <Alert
        data-testid="toast"
        data-variant={variant}
        role={urgent ? "alert" : "status"}
        variant="filled"
        severity={variant === "default" ? "info" : variant}
        icon={variant === "default" ? false : undefined}
        action={
          toast.action || toast.persist ? (
            <>
              {toast.action?.(toast.key)}
              {toast.persist && (
                <IconButton
                  size="small"
                  color="inherit"
                  title={t("common.close")}
                  aria-label={t("common.close")}
                  onClick={() => closeSnackbar(toast.key)}
                >
                  <CloseIcon fontSize="small" />
                </IconButton>
              )}
            </>
          ) : undefined
        }
        onMouseEnter={pause}
        onMouseLeave={resume}
        onFocus={pause}
        onBlur={resume}
        sx={{
          pointerEvents: "auto",
          alignItems: "center",
          minWidth: { sm: 288 },
          maxWidth: 568,
          boxShadow: 6,
          bgcolor: TOAST_BACKGROUNDS[variant],
          color: "#fff",
          "& .MuiAlert-icon": { color: "#fff" },
        }}
      >
        {toast.message}
      </Alert>
    </Slide>
  );
}

/** Where the toasts show (once, in the app's providers). */
export function Toaster() {
  const all = useSyncExternalStore(subscribe, () => toasts);
  return (
    <Box
      sx={(theme) => ({
        position: "fixed",
        zIndex: theme.zIndex.snackbar,
        bottom: { xs: 8, sm: 24 },
        right: { xs: 8, sm: 24 },
        left: { xs: 8, sm: "auto" },
        display: "flex",
        flexDirection: "column",
        alignItems: { xs: "stretch", sm: "flex-end" },
        gap: 1,
        pointerEvents: "none",
      })}
    >
      {all.map((toast) => (
        <ToastItem key={toast.key} toast={toast} />
      ))}
    </Box>
  );
}
