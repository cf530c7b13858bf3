import { useEffect, useState } from "react";
import { ApiError, refreshAccessToken } from "../../api/client";
import { sessionStore } from "../../api/session";

/** Only same-origin API paths are fetched with the user's token (never send the bearer elsewhere). */
function mediaPath(url: string): string | null {
  try {
    const parsed = new URL(url, window.location.origin);
    if (parsed.origin !== window.location.origin || !parsed.pathname.startsWith("/api/")) return null;
    return parsed.pathname + parsed.search;
  } catch {
    return null;
  }
}

/** Fetches an authorised media file (GET /api/media/:id with the bearer token), refreshing an expired token once. */
export async function fetchMediaBlob(url: string, signal?: AbortSignal): Promise<Blob> {
  const path = mediaPath(url);
  if (!path) throw new Error("ERR_NOT_FOUND");
  const get = () => fetch(path, { headers: { Authorization: `Bearer ${sessionStore.getToken() ?? ""}` }, credentials: "include", signal });
  let res = await get();
  if (res.status === 403) {
    const body = (await res
      .clone()
      .json()
      .catch(() => ({}))) as { error?: string };
    if (body.error === "ERR_TOKEN_EXPIRED") {
      await refreshAccessToken();
      res = await get();
    }
  }
  if (!res.ok) throw new ApiError(res.status, { error: res.statusText || "ERR_NOT_FOUND" });
  return res.blob();
}

/** A blob: URL for an authorised media file, revoked when the component unmounts or the url changes. */
export function useMediaBlobUrl(url: string | null | undefined): { src: string | null; error: boolean; loading: boolean } {
  const [state, setState] = useState<{ src: string | null; error: boolean; loading: boolean }>({ src: null, error: false, loading: !!url });
  useEffect(() => {
    if (!url) {
      setState({ src: null, error: false, loading: false });
      return;
    }
    const controller = new AbortController();
    let objectUrl: string | null = null;
    setState({ src: null, error: false, loading: true });
    fetchMediaBlob(url, controller.signal)
      .then((blob) => {
        objectUrl = URL.createObjectURL(blob);
        setState({ src: objectUrl, error: false, loading: false });
      })
      .catch(() => {
        if (!controller.signal.aborted) setState({ src: null, error: true, loading: false });
      });
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url]);
  return state;
}

/** Downloads an authorised file under its name (documents are never opened inline by us). */
export async function downloadMedia(url: string, fileName: string): Promise<void> {
  const blob = await fetchMediaBlob(url);
  const objectUrl = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = objectUrl;
  a.download = fileName || "arquivo";
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(objectUrl), 10_000);
}
