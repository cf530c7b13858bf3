import { timingSafeEqual } from "node:crypto";
import { and, asc, desc, eq, gt, sql } from "drizzle-orm";
import type { z } from "zod";
import {
  addRecurrence,
  formatBRL,
  isAdmin,
  isSuper,
  PAGE_SIZE,
  todayIn,
  type checkoutBody,
  type InvoiceListResponse,
  type ListQuery,
  type PixChargeDTO,
  type platformInvoiceListQuery,
  type PlatformInvoiceListResponse,
} from "@balcao/shared";
import type { AppContext } from "../../context";
import { companies, invoicePayments, invoices, pixCharges } from "../../db/schema";
import { containsPattern, foldColumn } from "../../db/search";
import { AppError, forbidden } from "../../http/errors";
import type { Actor } from "../auth/service";
import { generateDueInvoices, type GeneratedInvoice } from "./generation";
import { createPix, type PixSetup } from "./pix";
import { toCents, type PixReceived } from "./pix/provider";
import { presentCharge, presentInvoice } from "./presenter";

type CheckoutInput = z.output<typeof checkoutBody>;
type PlatformListQuery = z.output<typeof platformInvoiceListQuery>;

/** A charge is reused by a repeated checkout while it has at least this long to live. */
const REUSE_MARGIN_MS = 5 * 60 * 1000;
/** Callback bodies name at most this many payments; more is not a PSP talking. */
const MAX_CALLBACK_ITEMS = 100;

export interface SettleInput {
  invoiceId: number;
  companyId: number;
  method: "pix" | "manual";
  amountCents: number;
  paidAt: Date;
  txid?: string;
  endToEndId?: string;
  confirmedByUserId?: number;
}

export interface SettleResult {
  /** This payment settled the invoice (false: already paid, or this endToEndId was seen before). */
  applied: boolean;
  duplicate: boolean;
  dueDate?: string | null;
}

export class BillingService {
  private pix?: Promise<PixSetup>;
  private webhook?: Promise<void>;

  constructor(
    private readonly ctx: AppContext,
    /** Where the PSP reaches this server when no public URL is configured (the sandbox: our own address). */
    private readonly localBaseUrl: () => string | undefined,
  ) {}

  private get db() {
    return this.ctx.database.db;
  }

  private get config() {
    return this.ctx.config.billing;
  }

  /** The provider, built on first use (the sandbox starts its local PSP then, not at every app start). */
  pixSetup(): Promise<PixSetup> {
    this.pix ??= createPix(this.config).catch((err) => {
      this.pix = undefined;
      throw err;
    });
    return this.pix;
  }

  async close(): Promise<void> {
    const setup = await this.pix?.catch(() => undefined);
    await setup?.provider.close();
  }

  /** The path the PSP calls back (Efí appends `/pix`); the secret in it is what authenticates the caller. */
  webhookPath(): string {
    return `/api/billing/pix/webhook/${this.config.webhookSecret}`;
  }

  /** Registers our webhook at the PSP once per process, before the first charge it could confirm. */
  private ensureWebhook(setup: PixSetup): Promise<void> {
    if (!setup.provider.confirmsPayments) return Promise.resolve();
    const base = this.config.webhookBaseUrl ?? this.localBaseUrl();
    if (!base) {
      // Not listening yet and no public URL (in-process tests): the charge still works, and the billing job
      // confirms it at the PSP; registration is tried again on the next checkout.
      this.ctx.log.warn("Pix webhook not registered: no PUBLIC_URL or PIX_WEBHOOK_BASE_URL and the server is not listening");
      return Promise.resolve();
    }
    this.webhook ??= (async () => {
      await setup.provider.registerWebhook(`${base.replace(/\/$/, "")}${this.webhookPath()}`);
    })().catch((err) => {
      this.webhook = undefined;
      throw err;
    });
    return this.webhook;
  }

  /** The invoice generation the recurring job runs (and, for one company, the finance page). */
  generate(now: Date = new Date(), companyId?: number): Promise<GeneratedInvoice[]> {
    return generateDueInvoices(this.db, now, { leadDays: this.config.invoiceLeadDays, companyId });
  }

  private requireBilling(actor: Actor): void {
    if (!isAdmin(actor) && !isSuper(actor)) throw forbidden();
  }

  /** GET /invoices/all: the caller's company's invoices, newest due date first. */
  async list(actor: Actor, query: ListQuery): Promise<InvoiceListResponse> {
    this.requireBilling(actor);
    // The page never waits for the recurring job to show the invoice that is due (idempotent, one statement).
    await this.generate(new Date(), actor.companyId);
    const conditions = [eq(invoices.companyId, actor.companyId)];
    if (query.searchParam) {
      const asId = /^\d{1,9}$/.test(query.searchParam) ? Number(query.searchParam) : null;
      const byText = sql`${foldColumn(invoices.detail)} like ${containsPattern(query.searchParam)}`;
      conditions.push(asId ? sql`(${byText} or ${invoices.id} = ${asId})` : byText);
    }
    const rows = await this.db
      .select()
      .from(invoices)
      .where(and(...conditions))
      .orderBy(desc(invoices.dueDate), desc(invoices.id))
      .limit(PAGE_SIZE + 1)
      .offset((query.pageNumber - 1) * PAGE_SIZE);
    return { list: rows.slice(0, PAGE_SIZE).map(presentInvoice), hasMore: rows.length > PAGE_SIZE };
  }

  /**
   * POST /subscription: a Pix charge for one of the caller's open invoices. The amount is the invoice's,
   * computed on the server from the plan and recurrence; a different `price` in the body is refused.
   */
  async checkout(actor: Actor, input: CheckoutInput): Promise<PixChargeDTO> {
    this.requireBilling(actor);
    const [invoice] = await this.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.id, input.invoiceId), eq(invoices.companyId, actor.companyId)))
      .limit(1);
    if (!invoice) throw new AppError("ERR_NO_INVOICE_FOUND");
    if (invoice.status === "paid") throw new AppError("ERR_INVOICE_ALREADY_PAID");
    const amountCents = toCents(invoice.value);
    if (input.price !== null && toCents(input.price) !== amountCents)
      throw new AppError("ERR_CHECKOUT_AMOUNT_MISMATCH", undefined, { value: formatBRL(amountCents / 100) });

    if (input.address) {
      const a = input.address;
      await this.db
        .update(companies)
        .set({
          billingName: `${a.firstName} ${a.lastName}`.trim().slice(0, 200),
          addressStreet: a.address2,
          addressCity: a.city,
          addressState: a.state || null,
          addressZipCode: a.zipcode,
          updatedAt: new Date(),
        })
        .where(eq(companies.id, actor.companyId));
    }

    const setup = await this.providerOrFail();
    const { provider } = setup;
    // A second click, a reload or another tab gets the same live charge instead of a new one.
    const [reusable] = await this.db
      .select()
      .from(pixCharges)
      .where(
        and(
          eq(pixCharges.companyId, actor.companyId),
          eq(pixCharges.invoiceId, invoice.id),
          eq(pixCharges.provider, provider.kind),
          eq(pixCharges.status, "ATIVA"),
          sql`${pixCharges.amount} = ${invoice.value}`,
          sql`(${pixCharges.expiresAt} is null or ${pixCharges.expiresAt} > ${new Date(Date.now() + REUSE_MARGIN_MS).toISOString()}::timestamptz)`,
        ),
      )
      .orderBy(desc(pixCharges.createdAt))
      .limit(1);
    if (reusable) return presentCharge(reusable);

    try {
      await this.ensureWebhook(setup);
      const charge = await provider.createCharge({
        txid: provider.newTxid(invoice.id),
        amountCents,
        description: `Fatura ${invoice.id}`,
        expiresInSeconds: this.config.chargeExpirationSeconds,
      });
      const [row] = await this.db
        .insert(pixCharges)
        .values({
          txid: charge.txid,
          companyId: actor.companyId,
          invoiceId: invoice.id,
          provider: provider.kind,
          amount: amountCents / 100,
          status: charge.status,
          brCode: charge.brCode,
          createdAt: charge.createdAt,
          expiresAt: charge.expiresInSeconds === null ? null : new Date(charge.createdAt.getTime() + charge.expiresInSeconds * 1000),
        })
        // A static code has one txid per invoice: a concurrent checkout already stored it.
        .onConflictDoUpdate({ target: pixCharges.txid, set: { updatedAt: new Date() } })
        .returning();
      return presentCharge(row!);
    } catch (err) {
      this.ctx.log.warn({ err: (err as Error).message, invoiceId: invoice.id }, "Pix charge failed");
      throw new AppError("ERR_PIX_PROVIDER_UNAVAILABLE");
    }
  }

  private async providerOrFail(): Promise<PixSetup> {
    if (this.config.provider === "static" && !this.config.pixKey) throw new AppError("ERR_PIX_NOT_CONFIGURED");
    try {
      return await this.pixSetup();
    } catch (err) {
      this.ctx.log.error({ err }, "Pix provider could not start");
      throw new AppError("ERR_PIX_PROVIDER_UNAVAILABLE");
    }
  }

  /** Constant-time comparison of the webhook path secret. */
  webhookSecretMatches(given: string): boolean {
    const a = Buffer.from(given);
    const b = Buffer.from(this.config.webhookSecret);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  /**
   * The PSP's callback. Its body only says which txids to look at: each one is looked up at the PSP
   * (`GET /v2/cob/{txid}`) and settles its invoice only if the PSP says CONCLUIDA with the charge's exact
   * amount. Each endToEndId counts once (unique index), each invoice is paid once (guarded update).
   * Throws when the PSP cannot be asked, so the callback answers 5xx and the PSP retries it later.
   */
  async handleCallback(body: unknown): Promise<{ processed: number }> {
    const items = (body as { pix?: unknown } | null)?.pix;
    if (!Array.isArray(items)) return { processed: 0 };
    const txids = [
      ...new Set(
        items
          .slice(0, MAX_CALLBACK_ITEMS)
          .map((p) => (p as { txid?: unknown })?.txid)
          .filter((t): t is string => typeof t === "string" && /^[a-zA-Z0-9]{1,35}$/.test(t)),
      ),
    ];
    let processed = 0;
    for (const txid of txids) if (await this.confirmCharge(txid)) processed++;
    return { processed };
  }

  /** Asks the PSP about one of our charges and settles what it reports. True when an invoice got paid. */
  async confirmCharge(txid: string): Promise<boolean> {
    const [charge] = await this.db.select().from(pixCharges).where(eq(pixCharges.txid, txid)).limit(1);
    if (!charge) return false;
    const { provider } = await this.pixSetup();
    if (!provider.confirmsPayments || provider.kind !== charge.provider) return false;
    const state = await provider.getCharge(txid);
    if (!state) return false;
    const chargeCents = toCents(charge.amount);
    if (state.status !== charge.status)
      await this.db
        .update(pixCharges)
        .set({ status: state.status, updatedAt: new Date() })
        .where(and(eq(pixCharges.companyId, charge.companyId), eq(pixCharges.txid, txid)));
    if (state.status !== "CONCLUIDA") return false;
    if (toCents(state.amount) !== chargeCents) {
      this.ctx.log.warn({ txid, psp: state.amount, ours: charge.amount }, "Pix charge amount differs at the PSP: not settled");
      return false;
    }
    let paid = false;
    for (const received of state.payments.filter((p: PixReceived) => p.txid === txid)) {
      if (toCents(received.amount) !== chargeCents) {
        this.ctx.log.warn({ txid, endToEndId: received.endToEndId, amount: received.amount }, "Pix received with another amount: not settled");
        continue;
      }
      const result = await this.settle({
        invoiceId: charge.invoiceId,
        companyId: charge.companyId,
        method: "pix",
        amountCents: chargeCents,
        paidAt: new Date(received.paidAt),
        txid,
        endToEndId: received.endToEndId,
      });
      paid ||= result.applied;
    }
    return paid;
  }

  /**
   * Marks an invoice paid and extends the company's due date, in one transaction, at most once per invoice
   * (the update only matches an open invoice) and at most once per endToEndId. The new due date is the
   * invoice's due date plus its recurrence; an invoice paid after its company expired counts from the
   * payment day instead, so a paying company is never still locked out.
   */
  async settle(input: SettleInput): Promise<SettleResult> {
    const result = await this.db.transaction(async (tx): Promise<SettleResult & { companyId?: number }> => {
      let paymentId: number | undefined;
      const payment = {
        companyId: input.companyId,
        invoiceId: input.invoiceId,
        method: input.method,
        txid: input.txid ?? null,
        endToEndId: input.endToEndId ?? null,
        amount: input.amountCents / 100,
        paidAt: input.paidAt,
        confirmedByUserId: input.confirmedByUserId ?? null,
        applied: false,
      };
      if (input.endToEndId) {
        const inserted = await tx
          .insert(invoicePayments)
          .values(payment)
          .onConflictDoNothing({ target: invoicePayments.endToEndId })
          .returning({ id: invoicePayments.id });
        if (inserted.length === 0) return { applied: false, duplicate: true };
        paymentId = inserted[0]!.id;
      }
      const [invoice] = await tx
        .update(invoices)
        .set({ status: "paid", paidAt: input.paidAt, updatedAt: new Date() })
        .where(and(eq(invoices.id, input.invoiceId), eq(invoices.companyId, input.companyId), eq(invoices.status, "open")))
        .returning();
      if (!invoice) return { applied: false, duplicate: false };
      const [company] = await tx.select().from(companies).where(eq(companies.id, input.companyId)).for("update");
      const today = todayIn(company!.timeZone || this.ctx.config.defaultTimeZone);
      const extended = addRecurrence(invoice.dueDate >= today ? invoice.dueDate : today, invoice.recurrence);
      const dueDate = company!.dueDate && company!.dueDate > extended ? company!.dueDate : extended;
      await tx.update(companies).set({ dueDate, updatedAt: new Date() }).where(eq(companies.id, input.companyId));
      if (paymentId !== undefined)
        await tx
          .update(invoicePayments)
          .set({ applied: true })
          .where(and(eq(invoicePayments.companyId, input.companyId), eq(invoicePayments.id, paymentId)));
      else await tx.insert(invoicePayments).values({ ...payment, applied: true });
      if (input.txid)
        await tx
          .update(pixCharges)
          .set({ status: "CONCLUIDA", updatedAt: new Date() })
          .where(and(eq(pixCharges.companyId, input.companyId), eq(pixCharges.txid, input.txid)));
      return { applied: true, duplicate: false, dueDate, companyId: input.companyId };
    });
    if (result.applied)
      this.ctx.events.publish({
        type: "billing.paid",
        companyId: input.companyId,
        payload: { action: "CONCLUIDA", company: { id: input.companyId, dueDate: result.dueDate ?? null }, invoiceId: input.invoiceId },
      });
    return { applied: result.applied, duplicate: result.duplicate, dueDate: result.dueDate };
  }

  /** A super user confirms a payment received outside any PSP (a static BR Code). Idempotent. */
  async confirmManually(actor: Actor, invoiceId: number): Promise<{ applied: boolean; invoice: ReturnType<typeof presentInvoice> }> {
    if (!isSuper(actor)) throw forbidden();
    const [invoice] = await this.db.select().from(invoices).where(eq(invoices.id, invoiceId)).limit(1);
    if (!invoice) throw new AppError("ERR_NO_INVOICE_FOUND");
    const result = await this.settle({
      invoiceId,
      companyId: invoice.companyId,
      method: "manual",
      amountCents: toCents(invoice.value),
      paidAt: new Date(),
      confirmedByUserId: actor.id,
    });
    const [after] = await this.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.companyId, invoice.companyId), eq(invoices.id, invoiceId)))
      .limit(1);
    return { applied: result.applied, invoice: presentInvoice(after!) };
  }

  /** Super users: invoices of every company (open ones by default), to confirm static Pix payments. */
  async listPlatform(actor: Actor, query: PlatformListQuery): Promise<PlatformInvoiceListResponse> {
    if (!isSuper(actor)) throw forbidden();
    const conditions = [];
    if (query.status !== "all") conditions.push(eq(invoices.status, query.status));
    if (query.searchParam) conditions.push(sql`${foldColumn(companies.name)} like ${containsPattern(query.searchParam)}`);
    const rows = await this.db
      .select({ invoice: invoices, companyName: companies.name })
      .from(invoices)
      .innerJoin(companies, eq(companies.id, invoices.companyId))
      .where(conditions.length ? and(...conditions) : undefined)
      .orderBy(asc(invoices.dueDate), asc(invoices.id))
      .limit(PAGE_SIZE + 1)
      .offset((query.pageNumber - 1) * PAGE_SIZE);
    return {
      list: rows.slice(0, PAGE_SIZE).map((r) => ({ ...presentInvoice(r.invoice), companyId: r.invoice.companyId, companyName: r.companyName })),
      hasMore: rows.length > PAGE_SIZE,
    };
  }

  /**
   * The safety net behind the webhook: asks the PSP about live charges of open invoices (a lost or refused
   * callback still ends in a paid invoice). Run by the recurring billing job.
   */
  async reconcileOpenCharges(now: Date = new Date()): Promise<number> {
    if (this.config.provider === "static") return 0;
    const rows = await this.db
      .select({ txid: pixCharges.txid })
      .from(pixCharges)
      .innerJoin(invoices, and(eq(invoices.companyId, pixCharges.companyId), eq(invoices.id, pixCharges.invoiceId)))
      .where(and(eq(pixCharges.status, "ATIVA"), eq(invoices.status, "open"), gt(pixCharges.expiresAt, new Date(now.getTime() - 24 * 3600 * 1000))))
      .limit(200);
    let paid = 0;
    for (const { txid } of rows) if (await this.confirmCharge(txid).catch(() => false)) paid++;
    return paid;
  }
}
