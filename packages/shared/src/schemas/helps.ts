import { z } from "zod";
import { boundedText, MSG } from "./common";

const VIDEO_CODE = /^[A-Za-z0-9_-]{6,32}$/;

/** The YouTube video code in a pasted link (watch?v=, youtu.be/, /embed/, /shorts/), or the code itself. */
export function videoCodeOf(input: string): string | null {
  const value = input.trim();
  if (VIDEO_CODE.test(value)) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  const host = url.hostname.replace(/^www\.|^m\./, "");
  let code: string | null = null;
  if (host === "youtu.be") code = url.pathname.slice(1).split("/")[0] ?? null;
  else if (host === "youtube.com" || host === "youtube-nocookie.com") {
    code = url.searchParams.get("v") ?? /^\/(?:embed|shorts|live)\/([^/]+)/.exec(url.pathname)?.[1] ?? null;
  }
  return code && VIDEO_CODE.test(code) ? code : null;
}

/** The help video field: a code (what the spec stores and embeds) or a YouTube link it is taken from. */
export const videoField = z
  .string({ error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .max(300, MSG.tooLong)
  .transform((v, ctx) => {
    const code = videoCodeOf(v);
    if (!code) {
      ctx.addIssue({ code: "custom", message: "Invalid video" });
      return z.NEVER;
    }
    return code;
  });

export const helpCreateBody = z.object({
  title: boundedText(2, 200),
  description: z.string().trim().max(5000, MSG.tooLong).optional().default(""),
  video: videoField,
});
export type HelpCreateBody = z.input<typeof helpCreateBody>;

export const helpUpdateBody = z.object({
  title: boundedText(2, 200).optional(),
  description: z.string().trim().max(5000, MSG.tooLong).optional(),
  video: videoField.optional(),
});
export type HelpUpdateBody = z.input<typeof helpUpdateBody>;

export const helpDto = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  /** YouTube video code, embedded as https://www.youtube-nocookie.com/embed/{video}. */
  video: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type HelpDTO = z.infer<typeof helpDto>;

/** GET /helps: a page of 20 by title. */
export const helpListResponse = z.object({ records: z.array(helpDto), hasMore: z.boolean() });
export type HelpListResponse = z.infer<typeof helpListResponse>;
