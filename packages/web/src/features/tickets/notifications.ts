/**
 * Notifications of spec §4: a sound at the stored volume and a browser notification for a new incoming
 * message, never for tickets owned by another user or for groups; pending (unassigned) tickets notify
 * only users whose allTicket is 'enable'. A ticket the user is looking at does not notify.
 */
import type { AppMessageEvent, UserDTO } from "@balcao/shared";
import { activeServiceWorker } from "../../app/pwa";

export interface NotifyContext {
  me: Pick<UserDTO, "id" | "allTicket">;
  /** uuid of the ticket open on screen, if any. */
  openTicketUuid?: string | null;
  /** document.visibilityState === "visible" */
  pageVisible?: boolean;
}

export function shouldNotify(event: AppMessageEvent, { me, openTicketUuid = null, pageVisible = true }: NotifyContext): boolean {
  if (event.action !== "create") return false;
  const { message, ticket } = event;
  if (message.fromMe || message.read) return false;
  if (ticket.isGroup) return false;
  if (ticket.userId !== null && ticket.userId !== me.id) return false;
  if ((ticket.status === "pending" || ticket.userId === null) && me.allTicket !== "enable") return false;
  if (ticket.status === "closed") return false;
  if (openTicketUuid === ticket.uuid && pageVisible) return false;
  return true;
}

let audioContext: AudioContext | null = null;

/** A short two-tone beep generated with WebAudio (no network, no bundled file). */
export function playNotificationSound(volume: number): void {
  const gainValue = Math.max(0, Math.min(1, Number.isFinite(volume) ? volume : 1));
  if (gainValue === 0) return;
  const Ctor =
    typeof window !== "undefined"
      ? (window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext)
      : undefined;
  if (!Ctor) return;
  try {
    audioContext ??= new Ctor();
    const ctx = audioContext;
    if (ctx.state === "suspended") void ctx.resume().catch(() => undefined);
    const gain = ctx.createGain();
    gain.connect(ctx.destination);
    const start = ctx.currentTime;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.25 * gainValue, start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.35);
    [880, 1320].forEach((frequency, i) => {
      const osc = ctx.createOscillator();
      osc.type = "sine";
      osc.frequency.setValueAtTime(frequency, start + i * 0.12);
      osc.connect(gain);
      osc.start(start + i * 0.12);
      osc.stop(start + 0.12 + i * 0.12 + 0.1);
    });
  } catch {
    // sound is a courtesy: a blocked audio context must not break message handling
  }
}

export function requestNotificationPermission(): void {
  if (typeof Notification === "undefined" || Notification.permission !== "default") return;
  void Promise.resolve(Notification.requestPermission()).catch(() => undefined);
}

/**
 * Shows a browser notification when the user allowed them; clicking focuses the tab and opens the ticket.
 * While the tab is hidden and the service worker controls the page (installed app, issue 16), the worker
 * shows it, so it also works where pages may not create notifications; its click opens `url`.
 */
export function showBrowserNotification(title: string, body: string, tag: string, onClick: () => void, url?: string): void {
  if (typeof Notification === "undefined" || Notification.permission !== "granted") return;
  if (url && typeof document !== "undefined" && document.hidden) {
    void activeServiceWorker().then((registration) => {
      if (registration) void registration.showNotification(title, { body, tag, data: { url }, icon: "/icon.svg" }).catch(() => undefined);
      else showPageNotification(title, body, tag, onClick);
    });
    return;
  }
  showPageNotification(title, body, tag, onClick);
}

function showPageNotification(title: string, body: string, tag: string, onClick: () => void): void {
  try {
    const notification = new Notification(title, { body, tag, renotify: true } as NotificationOptions);
    notification.onclick = (e) => {
      e.preventDefault();
      window.focus();
      onClick();
      notification.close();
    };
  } catch {
    // some browsers only allow notifications from a service worker
  }
}
