import { useEffect, useState } from "react";
import { lazyWhenOpened } from "../../components/lazyWhenOpened";
import { runInboxAction } from "./inboxActions";
import { isPaletteKey, isTyping, SHORTCUT_KEYS } from "./shortcuts";

// Downloaded on the first Ctrl/⌘+K (issue 20): it carries the phone formatting of the search results.
const CommandPalette = lazyWhenOpened(() => import("./CommandPalette").then((module) => module.CommandPalette));
// Downloaded on the first `?` (issue 20): the help sheet's dialog and table are not needed to show a page.
const ShortcutsHelp = lazyWhenOpened(() => import("./ShortcutsHelp").then((module) => module.ShortcutsHelp));

/**
 * Keyboard-first layer of the logged-in layout (issue 16): Ctrl/⌘+K opens the command palette everywhere;
 * `?` the help sheet; the inbox keys (j, k, a, r, c, /) run what the tickets page offers. Single keys never
 * fire while typing in a field, with a modifier held, or while a dialog is open.
 */
export function KeyboardLayer() {
  const [palette, setPalette] = useState(false);
  const [help, setHelp] = useState(false);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      if (isPaletteKey(event)) {
        event.preventDefault();
        setHelp(false);
        setPalette(true);
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      if (document.querySelector('[role="dialog"], [role="presentation"].MuiModal-root:not(.MuiModal-hidden)')) return;
      if (event.key === "?") {
        event.preventDefault();
        setHelp(true);
        return;
      }
      const shortcut = SHORTCUT_KEYS.find((s) => s.key === event.key);
      if (shortcut && runInboxAction(shortcut.action)) event.preventDefault();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);

  return (
    <>
      <CommandPalette open={palette} onClose={() => setPalette(false)} />
      <ShortcutsHelp open={help} onClose={() => setHelp(false)} />
    </>
  );
}
