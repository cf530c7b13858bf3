import { z } from "zod";
import { idField, listQuery } from "./common";

/** Validation texts of the checkout form (spec §5; the CEP format text is ours: the spec does not show it). */
export const CHECKOUT_MSG = {
  firstName: "O nome completo é obrigatório",
  address: "O Endereço é obrigatório",
  city: "Cidade é obrigatória",
  zipcode: "CEP é obrigatório",
  zipcodeInvalid: "CEP inválido",
  country: "País é obrigatório",
} as const;

const required = (message: string, max: number) => z.string({ error: message }).trim().min(1, message).max(max, "Too Long!");
const optionalText = (max: number) => z.string().trim().max(max, "Too Long!").optional().default("");

/** A Brazilian CEP: 8 digits, with or without the hyphen. Stored as digits. */
export const cepField = z
  .string({ error: CHECKOUT_MSG.zipcode })
  .trim()
  .min(1, { message: CHECKOUT_MSG.zipcode, abort: true })
  .regex(/^\d{5}-?\d{3}$/, CHECKOUT_MSG.zipcodeInvalid)
  .transform((v) => v.replace("-", ""));

/** Step "Dados" of the checkout: the billing address (spec §2, §5). The web form and the server share it. */
export const checkoutAddressSchema = z.object({
  firstName: required(CHECKOUT_MSG.firstName, 100),
  lastName: optionalText(100),
  address2: required(CHECKOUT_MSG.address, 200),
  city: required(CHECKOUT_MSG.city, 100),
  state: optionalText(50),
  zipcode: cepField,
  country: required(CHECKOUT_MSG.country, 60),
});
export type CheckoutAddress = z.input<typeof checkoutAddressSchema>;

const ADDRESS_KEYS = ["firstName", "lastName", "address2", "city", "state", "zipcode", "country"] as const;

/**
 * POST /subscription (spec §3 "Subscription payload"). Only `invoiceId` decides what is charged: the amount
 * comes from the invoice (made from the plan and recurrence), never from the body. `price`, `plan`, `users`
 * and `connections` are accepted for compatibility with the spec's client; a `price` that differs from the
 * invoice is refused (ERR_CHECKOUT_AMOUNT_MISMATCH) instead of being charged. Card fields are ignored
 * (payment is by Pix) and never stored. The billing address is optional (Pix needs none); when any of its
 * fields is sent, the required ones must all be valid, with the spec's texts.
 */
export const checkoutBody = z
  .object({
    invoiceId: idField,
    firstName: z.string().optional(),
    lastName: z.string().optional(),
    address2: z.string().optional(),
    city: z.string().optional(),
    state: z.string().optional(),
    zipcode: z.string().optional(),
    country: z.string().optional(),
    useAddressForPaymentDetails: z.boolean().optional(),
    nameOnCard: z.string().max(200).optional(),
    cardNumber: z.string().max(40).optional(),
    cvv: z.string().max(8).optional(),
    plan: z.union([z.string().max(2000), z.record(z.string(), z.unknown())]).optional(),
    price: z.union([z.number(), z.string().max(30)]).optional(),
    users: z.union([z.number(), z.string().max(30)]).optional(),
    connections: z.union([z.number(), z.string().max(30)]).optional(),
  })
  .transform((body, ctx) => {
    const sent = ADDRESS_KEYS.some((k) => (body[k] ?? "").trim() !== "");
    let address: z.output<typeof checkoutAddressSchema> | null = null;
    if (sent) {
      const parsed = checkoutAddressSchema.safeParse(Object.fromEntries(ADDRESS_KEYS.map((k) => [k, body[k] ?? ""])));
      if (!parsed.success) {
        for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
        return z.NEVER;
      }
      address = parsed.data;
    }
    const price = body.price === undefined || body.price === "" ? null : Number(String(body.price).replace(",", "."));
    if (price !== null && !Number.isFinite(price)) {
      ctx.addIssue({ code: "custom", message: "ERR_VALIDATION", path: ["price"] });
      return z.NEVER;
    }
    return { invoiceId: body.invoiceId, address, price };
  });
export type CheckoutBody = z.input<typeof checkoutBody>;

export const invoiceListQuery = listQuery;

export const INVOICE_STATUSES = ["open", "paid"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const invoiceDto = z.object({
  id: z.number(),
  detail: z.string(),
  /** BRL. */
  value: z.number(),
  /** yyyy-MM-dd. */
  dueDate: z.string(),
  status: z.enum(INVOICE_STATUSES),
  paidAt: z.string().nullable(),
  recurrence: z.string(),
  createdAt: z.string(),
});
export type InvoiceDTO = z.infer<typeof invoiceDto>;

/** GET /invoices/all (spec §7: "list, hasMore"). */
export const invoiceListResponse = z.object({
  list: z.array(invoiceDto),
  hasMore: z.boolean(),
});
export type InvoiceListResponse = z.infer<typeof invoiceListResponse>;

/** Which Pix the platform charges with: a static BR Code (manual confirmation), a PSP's API Pix, or the sandbox PSP. */
export type PixProviderKind = "static" | "efi" | "sandbox";

/**
 * The Pix response of POST /subscription (spec §3: `qrcode.qrcode`, `valor.original`), shaped like the
 * API Pix charge it came from.
 */
export const pixChargeDto = z.object({
  invoiceId: z.number(),
  txid: z.string(),
  provider: z.enum(["static", "efi", "sandbox"]),
  /** ATIVA until paid (CONCLUIDA), a static code stays ATIVA until a super user confirms the payment. */
  status: z.string(),
  valor: z.object({ original: z.string() }),
  qrcode: z.object({ qrcode: z.string() }),
  calendario: z.object({ criacao: z.string(), expiracao: z.number().nullable() }),
});
export type PixChargeDTO = z.infer<typeof pixChargeDto>;

/** The `payment` socket event (spec §3 "Payment event": action, company.dueDate). */
export interface PaymentEventPayload {
  action: "CONCLUIDA";
  company: { id: number; dueDate: string | null };
  invoiceId: number;
}

/** Super users: every company's invoices (to confirm static Pix payments by hand). */
export const platformInvoiceListQuery = listQuery.extend({
  status: z.enum(["open", "paid", "all"]).optional().default("open"),
});

export const platformInvoiceDto = invoiceDto.extend({
  companyId: z.number(),
  companyName: z.string(),
});
export type PlatformInvoiceDTO = z.infer<typeof platformInvoiceDto>;

export const platformInvoiceListResponse = z.object({
  list: z.array(platformInvoiceDto),
  hasMore: z.boolean(),
});
export type PlatformInvoiceListResponse = z.infer<typeof platformInvoiceListResponse>;

/** The sandbox PSP's "bank app": pays a charge by its txid or its copy-and-paste code. */
export const pixSandboxPayBody = z
  .object({ txid: z.string().trim().max(35).optional(), pixCopiaECola: z.string().trim().max(512).optional() })
  .refine((b) => !!b.txid || !!b.pixCopiaECola, { message: "ERR_VALIDATION" });
