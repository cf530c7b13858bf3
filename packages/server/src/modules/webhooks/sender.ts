/** One HTTP POST of a webhook delivery, signed, with a timeout, no redirects and the SSRF guard (ssrf.ts). */
import { createHmac } from "node:crypto";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { WEBHOOK_DELIVERY_HEADER, WEBHOOK_EVENT_HEADER, WEBHOOK_SIGNATURE_HEADER } from "@balcao/shared";
import { guardedLookup, hostOf, isPrivateAddress, PrivateTargetError } from "./ssrf";

const TIMEOUT_MS = 10_000;
/** Characters of the receiver's answer kept in the delivery log. */
export const RESPONSE_KEEP = 2_000;

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` (docs/api.md "Outgoing webhooks"). */
export function signature(secret: string, timestamp: number, body: string): string {
  const mac = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
  return `t=${timestamp},v1=${mac}`;
}

export interface PostOutcome {
  statusCode: number;
  body: string;
}

export function postSigned(
  target: string,
  body: string,
  meta: { secret: string; event: string; deliveryId: number; allowPrivate: boolean },
): Promise<PostOutcome> {
  const url = new URL(target);
  const host = hostOf(url);
  // A literal IP never goes through `lookup`: check it here.
  if (!meta.allowPrivate && isIP(host) && isPrivateAddress(host)) return Promise.reject(new PrivateTargetError(host));
  const timestamp = Math.floor(Date.now() / 1000);
  const client = url.protocol === "https:" ? https : http;
  return new Promise<PostOutcome>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "user-agent": "Balcao-Webhooks/1",
          [WEBHOOK_EVENT_HEADER]: meta.event,
          [WEBHOOK_DELIVERY_HEADER]: String(meta.deliveryId),
          [WEBHOOK_SIGNATURE_HEADER]: signature(meta.secret, timestamp, body),
        },
        timeout: TIMEOUT_MS,
        ...(!meta.allowPrivate && { lookup: guardedLookup as unknown as typeof import("node:dns").lookup }),
      },
      (response) => {
        let kept = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          if (kept.length < RESPONSE_KEEP) kept += chunk.slice(0, RESPONSE_KEEP - kept.length);
        });
        response.on("end", () => resolve({ statusCode: response.statusCode ?? 0, body: kept }));
        response.on("error", reject);
      },
    );
    request.on("timeout", () => request.destroy(new Error(`no answer in ${TIMEOUT_MS / 1000} s`)));
    request.on("error", reject);
    request.end(body);
  });
}
