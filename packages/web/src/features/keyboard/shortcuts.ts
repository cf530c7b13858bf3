import type { InboxActionName } from "./inboxActions";

/** The single-key shortcuts of the inbox (issue 16); the help sheet lists these and the palette's Ctrl/⌘+K. */
export const SHORTCUT_KEYS: { key: string; action: InboxActionName }[] = [
  { key: "j", action: "next" },
  { key: "k", action: "previous" },
  { key: "a", action: "accept" },
  { key: "r", action: "resolve" },
  { key: "c", action: "focusComposer" },
  { key: "/", action: "quickReplies" },
];

/** Whether the key press happens while typing: text fields, selects, editable content or an open listbox. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.closest('[contenteditable=""], [contenteditable="true"]')) return true;
  const tag = target.tagName;
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  if (tag === "INPUT") {
    const type = (target as HTMLInputElement).type;
    return !["button", "checkbox", "radio", "submit", "reset", "range", "color", "file", "image"].includes(type);
  }
  return target.getAttribute("role") === "textbox" || target.getAttribute("role") === "combobox";
}

/** Ctrl+K (⌘+K on a Mac) opens the command palette. */
export function isPaletteKey(event: KeyboardEvent): boolean {
  return (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === "k";
}
