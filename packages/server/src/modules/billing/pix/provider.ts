import type { PixProviderKind } from "@balcao/shared";

/**
 * What billing needs from a way of charging by Pix. Two implementations: a static BR Code built here (no PSP;
 * a super user confirms the payment by hand) and a PSP speaking the Banco Central's API Pix v2 (dynamic
 * charge; the PSP confirms it, and we believe only the PSP's own record of the charge, never a callback body).
 */
export interface PixProvider {
  readonly kind: PixProviderKind;
  /** True when the PSP can say a charge was paid (webhook + lookup); false for a static code. */
  readonly confirmsPayments: boolean;
  /** A txid this provider accepts (static: ≤ 25 alphanumerics; API Pix `PUT /cob/{txid}`: 26–35). */
  newTxid(invoiceId: number): string;
  createCharge(request: PixChargeRequest): Promise<PixCharge>;
  /** The PSP's record of the charge (`GET /v2/cob/{txid}`), or null when it does not know it. */
  getCharge(txid: string): Promise<PixChargeState | null>;
  /** Tells the PSP where to call back (`PUT /v2/webhook/{chave}`); a no-op for a static code. */
  registerWebhook(url: string): Promise<void>;
  close(): Promise<void>;
}

export interface PixChargeRequest {
  txid: string;
  amountCents: number;
  /** Shown to the payer (solicitacaoPagador / infoAdicional). */
  description: string;
  expiresInSeconds: number;
}

export interface PixCharge {
  txid: string;
  status: string;
  /** "99.90" */
  amount: string;
  /** The EMV copy-and-paste text (pixCopiaECola). */
  brCode: string;
  createdAt: Date;
  /** null: does not expire (static). */
  expiresInSeconds: number | null;
}

export interface PixReceived {
  endToEndId: string;
  txid: string;
  /** "99.90" */
  amount: string;
  paidAt: string;
}

export interface PixChargeState {
  txid: string;
  status: string;
  amount: string;
  payments: PixReceived[];
}

export class PixProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** Money travels as integer cents inside Balcão and as "0.00" strings on the API Pix. */
export function toCents(value: number | string): number {
  const n = typeof value === "number" ? value : Number(value);
  if (!Number.isFinite(n)) return NaN;
  return Math.round(n * 100);
}

export function formatCents(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** `length` random characters of [A-Za-z0-9] (the txid alphabet). */
export function randomAlphanumeric(length: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let out = "";
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return out;
}
