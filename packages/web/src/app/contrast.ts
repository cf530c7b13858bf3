/** WCAG relative luminance of a #rgb or #rrggbb colour; null for anything else (theme tokens, names). */
function luminance(color: string): number | null {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (!m) return null;
  const hex = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join("") : m[1]!;
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** The WCAG contrast ratio of two hex colours (1 to 21); null when one is not a hex colour. */
export function contrastRatio(a: string, b: string): number | null {
  const la = luminance(a);
  const lb = luminance(b);
  if (la === null || lb === null) return null;
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/**
 * Text colour for a label on a user-chosen background (tags, queues): white or near-black, whichever contrasts
 * more, so a light tag colour still gives readable (WCAG AA) text (issue 16). Non-hex backgrounds get white.
 */
export function readableTextOn(background: string | null | undefined): string {
  if (!background) return "#fff";
  const white = contrastRatio(background, "#ffffff");
  const black = contrastRatio(background, "#1a1a1a");
  if (white === null || black === null) return "#fff";
  return white >= black ? "#fff" : "#1a1a1a";
}
