/**
 * WhatsApp's text formatting as React elements, never as HTML: *bold*, _italic_, ~strike~, ```mono```
 * and http(s) links. Text is always rendered as text (React escapes it), so markup in a message is shown
 * literally; link targets are limited to http, https, mailto and tel.
 */
import { Link } from "@mui/material";
import type { ReactNode } from "react";
import { FORMAT_RE } from "./whatsappMarkers";

const SAFE_PROTOCOLS = new Set(["http:", "https:", "mailto:", "tel:"]);

/** The href when it is a link we may open (http, https, mailto, tel), else null. */
export function safeHref(raw: string): string | null {
  try {
    const url = new URL(raw.trim());
    return SAFE_PROTOCOLS.has(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

const URL_RE = /\bhttps?:\/\/[^\s<>"']+/gi;
const TRAILING_PUNCT = /[.,;:!?)\]}'"]+$/;

const TAGS: Record<string, (children: ReactNode[], key: string) => ReactNode> = {
  "*": (c, key) => <strong key={key}>{c}</strong>,
  _: (c, key) => <em key={key}>{c}</em>,
  "~": (c, key) => <s key={key}>{c}</s>,
  "```": (c, key) => (
    <code key={key} style={{ fontFamily: "monospace" }}>
      {c}
    </code>
  ),
};

function formatInline(text: string, keyPrefix: string): ReactNode[] {
  const out: ReactNode[] = [];
  let rest = text;
  let i = 0;
  while (rest) {
    const match = FORMAT_RE.exec(rest);
    if (!match || match.index === undefined) {
      out.push(rest);
      break;
    }
    if (match.index > 0) out.push(rest.slice(0, match.index));
    const [whole, marker, inner] = match;
    const key = `${keyPrefix}-${i++}`;
    out.push(TAGS[marker](marker === "```" ? [inner] : formatInline(inner, key), key));
    rest = rest.slice(match.index + whole.length);
  }
  return out;
}

/** Splits a message body into text, formatted spans and links. */
export function formatWhatsApp(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  let n = 0;
  for (const match of text.matchAll(URL_RE)) {
    let url = match[0];
    const trailing = TRAILING_PUNCT.exec(url)?.[0] ?? "";
    if (trailing) url = url.slice(0, -trailing.length);
    const start = match.index ?? 0;
    const href = safeHref(url);
    if (!href) continue;
    if (start > last) out.push(...formatInline(text.slice(last, start), `t${n}`));
    out.push(
      <Link key={`l${n}`} href={href} target="_blank" rel="noopener noreferrer" sx={{ wordBreak: "break-all" }}>
        {url}
      </Link>,
    );
    last = start + url.length;
    n++;
  }
  if (last < text.length) out.push(...formatInline(text.slice(last), `t${n}`));
  return out;
}

export function WhatsAppText({ text }: { text: string }) {
  return <>{formatWhatsApp(text)}</>;
}
