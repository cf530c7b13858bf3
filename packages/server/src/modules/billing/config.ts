import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { PixProviderKind } from "@balcao/shared";

/** Efí's production API Pix host (its homologation host is https://pix-h.api.efipay.com.br). */
export const EFI_PIX_URL = "https://pix.api.efipay.com.br";

const MIN_WEBHOOK_SECRET = 32;

const schema = z.object({
  PIX_PROVIDER: z.enum(["static", "efi", "sandbox"]).optional(),
  PIX_KEY: z.string().trim().min(1).max(77).optional(),
  PIX_MERCHANT_NAME: z.string().trim().min(1).max(25).default("Balcao"),
  PIX_MERCHANT_CITY: z.string().trim().min(1).max(15).default("Sao Paulo"),
  PIX_CHARGE_EXPIRATION_S: z.coerce
    .number()
    .int()
    .min(60)
    .max(86_400 * 30)
    .default(3600),
  PIX_WEBHOOK_SECRET: z.string().optional(),
  PIX_WEBHOOK_BASE_URL: z.string().url().optional(),
  PIX_PSP_URL: z.string().url().optional(),
  PIX_PSP_TOKEN_PATH: z.string().startsWith("/").default("/oauth/token"),
  PIX_PSP_CLIENT_ID: z.string().optional(),
  PIX_PSP_CLIENT_SECRET: z.string().optional(),
  PIX_PSP_CERT: z.string().optional(),
  PIX_PSP_CERT_PASSPHRASE: z.string().optional(),
  PIX_PSP_CA: z.string().optional(),
  INVOICE_LEAD_DAYS: z.coerce.number().int().min(0).max(90).default(20),
  INVOICE_GENERATION_CRON: z.string().default("*/15 * * * *"),
});

export interface PspConfig {
  baseUrl: string;
  tokenPath: string;
  clientId: string;
  clientSecret: string;
  /** Path of the PSP's client certificate: a .p12/.pfx (Efí issues one) or a PEM holding certificate and key. */
  certPath: string;
  certPassphrase?: string;
  /** Extra CA to trust for the PSP's server certificate (a homologation or private PSP host). */
  caPath?: string;
}

export interface BillingConfig {
  provider: PixProviderKind;
  /** The platform's Pix key (static BR Code, and the `chave` of API Pix charges). */
  pixKey: string | null;
  merchantName: string;
  merchantCity: string;
  chargeExpirationSeconds: number;
  /** Invoices appear this many days before the due date. */
  invoiceLeadDays: number;
  invoiceGenerationCron: string;
  /** Unguessable path segment of the webhook URL registered at the PSP (the callback carries no signature). */
  webhookSecret: string;
  /** Public base the PSP calls back (defaults to PUBLIC_URL; the sandbox uses the listening address). */
  webhookBaseUrl?: string;
  psp?: PspConfig;
}

export class BillingConfigError extends Error {}

/** Reads the PIX_* and INVOICE_* settings (README, configuration table); strict in production. */
export function loadBillingConfig(source: NodeJS.ProcessEnv, env: "development" | "production" | "test", publicUrl?: string): BillingConfig {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new BillingConfigError(`Invalid setting ${first?.path.join(".")}: ${first?.message}`);
  }
  const e = parsed.data;
  const production = env === "production";
  const provider: PixProviderKind = e.PIX_PROVIDER ?? (production ? (e.PIX_PSP_CLIENT_ID ? "efi" : "static") : "sandbox");
  if (provider === "sandbox" && production) throw new BillingConfigError("PIX_PROVIDER=sandbox is a test PSP and is refused in production.");

  let psp: PspConfig | undefined;
  if (provider === "efi") {
    const missing = (["PIX_KEY", "PIX_PSP_CLIENT_ID", "PIX_PSP_CLIENT_SECRET", "PIX_PSP_CERT"] as const).filter((k) => !e[k]);
    if (missing.length) throw new BillingConfigError(`PIX_PROVIDER=efi needs ${missing.join(", ")}.`);
    psp = {
      baseUrl: e.PIX_PSP_URL ?? EFI_PIX_URL,
      tokenPath: e.PIX_PSP_TOKEN_PATH,
      clientId: e.PIX_PSP_CLIENT_ID!,
      clientSecret: e.PIX_PSP_CLIENT_SECRET!,
      certPath: e.PIX_PSP_CERT!,
      certPassphrase: e.PIX_PSP_CERT_PASSPHRASE,
      caPath: e.PIX_PSP_CA,
    };
  }

  let webhookSecret = e.PIX_WEBHOOK_SECRET;
  if (provider === "efi" && production) {
    if (!webhookSecret || webhookSecret.length < MIN_WEBHOOK_SECRET)
      throw new BillingConfigError(
        `PIX_WEBHOOK_SECRET is required with PIX_PROVIDER=efi in production (at least ${MIN_WEBHOOK_SECRET} random characters).`,
      );
    if (!e.PIX_WEBHOOK_BASE_URL && !publicUrl)
      throw new BillingConfigError("PIX_PROVIDER=efi needs PUBLIC_URL or PIX_WEBHOOK_BASE_URL for the payment webhook.");
  }
  // Outside production a per-process secret is enough: the webhook is registered again by each process.
  webhookSecret ??= randomBytes(24).toString("base64url");

  return {
    provider,
    pixKey: e.PIX_KEY ?? (provider === "sandbox" ? "pix@balcao.local" : null),
    merchantName: e.PIX_MERCHANT_NAME,
    merchantCity: e.PIX_MERCHANT_CITY,
    chargeExpirationSeconds: e.PIX_CHARGE_EXPIRATION_S,
    invoiceLeadDays: e.INVOICE_LEAD_DAYS,
    invoiceGenerationCron: e.INVOICE_GENERATION_CRON,
    webhookSecret,
    webhookBaseUrl: e.PIX_WEBHOOK_BASE_URL ?? publicUrl,
    psp,
  };
}
