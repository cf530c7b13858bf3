import { lazy, Suspense, useEffect, useState, type ComponentType } from "react";

/** Reports that the Suspense boundary it sits in has committed, i.e. that the lazy component beside it mounted. */
function Mounted({ report }: { report: (mounted: boolean) => void }) {
  useEffect(() => report(true), [report]);
  return null;
}

/**
 * A dialog or drawer whose code downloads when it is first opened, not with the page (issue 20: the contact
 * drawer, the new-ticket and schedule dialogs and the command palette carry the phone metadata, Autocomplete…,
 * which the tickets page does not need to show). Until then nothing is rendered, as a closed dialog renders
 * nothing; once its chunk is there it mounts closed and opens on the next render, so its opening transition
 * runs as before, and it stays mounted afterwards (its state survives closing, as before).
 */
export function lazyWhenOpened<P extends { open: boolean }>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  function LazyWhenOpened(props: P) {
    const [opened, setOpened] = useState(props.open);
    const [mounted, setMounted] = useState(false);
    if (props.open && !opened) setOpened(true);
    if (!opened) return null;
    return (
      <Suspense fallback={null}>
        <Lazy {...props} open={mounted && props.open} />
        <Mounted report={setMounted} />
      </Suspense>
    );
  }
  return LazyWhenOpened;
}
