import type { ApiErrorBody, SendApiResponse } from "@balcao/shared";
import { ApiError } from "../../api/client";

export interface TestSend {
  number: string;
  body: string;
  file?: File | null;
}

/** The send API's address on this server: the real origin the browser is on (spec §7 `POST /api/messages/send`). */
export const sendApiUrl = (origin: string) => `${origin}/api/messages/send`;

/**
 * Sends through the real endpoint with the connection's token (not the signed-in user's session): exactly
 * what an integration does, so the page's test proves the token and the connection work.
 */
export async function sendWithToken(origin: string, token: string, input: TestSend): Promise<SendApiResponse> {
  let init: RequestInit;
  if (input.file) {
    const form = new FormData();
    form.append("number", input.number);
    form.append("body", input.body);
    form.append("medias", input.file, input.file.name);
    init = { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: form };
  } else {
    init = {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ number: input.number, body: input.body }),
    };
  }
  const response = await fetch(sendApiUrl(origin), init);
  const payload: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const body = payload && typeof payload === "object" && "error" in payload ? (payload as ApiErrorBody) : { error: `HTTP ${response.status}` };
    throw new ApiError(response.status, body);
  }
  return payload as SendApiResponse;
}

/** Single-quoted for a POSIX shell: the token and texts may hold characters the shell would read. */
const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** The page's copyable examples, filled with this server's origin and the connection's token. */
export function curlExamples(origin: string, token: string, sample: { number: string; text: string; caption: string }) {
  const url = shellQuote(sendApiUrl(origin));
  const auth = shellQuote(`Authorization: Bearer ${token}`);
  const json = shellQuote(JSON.stringify({ number: sample.number, body: sample.text }));
  return {
    text: [`curl -X POST ${url} \\`, `  -H ${auth} \\`, `  -H 'Content-Type: application/json' \\`, `  -d ${json}`].join("\n"),
    media: [
      `curl -X POST ${url} \\`,
      `  -H ${auth} \\`,
      `  -F ${shellQuote(`number=${sample.number}`)} \\`,
      `  -F ${shellQuote(`body=${sample.caption}`)} \\`,
      `  -F 'medias=@arquivo.pdf'`,
    ].join("\n"),
  };
}
