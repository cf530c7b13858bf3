import { z } from "zod";
import { checkoutBody, idParams, invoiceListQuery, pixSandboxPayBody, platformInvoiceListQuery } from "@balcao/shared";
import type { App } from "../../app";
import type { AppContext } from "../../context";
import { actorOf } from "../../http/auth";
import { AppError, notFound } from "../../http/errors";
import { BillingService } from "./service";

/** Name of the recurring job (jobs/runner.ts) that generates due invoices and reconciles live Pix charges. */
export const INVOICE_JOB = "billing.generate-invoices";

const webhookParams = z.object({ secret: z.string().max(200) });

const services = new WeakMap<AppContext, BillingService>();
/** The billing service of an app (tests reach the sandbox PSP and settlement through it). */
export const billingServiceOf = (ctx: AppContext): BillingService | undefined => services.get(ctx);

export function registerBillingRoutes(app: App): void {
  const billing = new BillingService(app.ctx, () => {
    const address = app.server.address();
    return typeof address === "object" && address ? `http://127.0.0.1:${address.port}` : undefined;
  });
  services.set(app.ctx, billing);
  // An expired company's admin reaches these with a billing-only session (http/auth.ts); nothing else.
  const billingOnly = { preHandler: app.authenticate, config: { allowExpiredSubscription: true } };
  const auth = { preHandler: app.authenticate };

  app.get("/invoices/all", { ...billingOnly, schema: { querystring: invoiceListQuery, tags: ["billing"] } }, (request) =>
    billing.list(actorOf(request), request.query),
  );
  app.post("/subscription", { ...billingOnly, schema: { body: checkoutBody, tags: ["billing"] } }, async (request, reply) =>
    reply.status(201).send(await billing.checkout(actorOf(request), request.body)),
  );

  app.get("/invoices/platform", { ...auth, schema: { querystring: platformInvoiceListQuery, tags: ["billing"] } }, (request) =>
    billing.listPlatform(actorOf(request), request.query),
  );
  app.post("/invoices/:id/confirm-payment", { ...auth, schema: { params: idParams, tags: ["billing"] } }, (request) =>
    billing.confirmManually(actorOf(request), request.params.id),
  );

  /**
   * The PSP's callback (Efí calls `{registered url}/pix`). No bearer token: the unguessable secret in the
   * path authenticates the caller, and nothing in the body is believed (service.handleCallback).
   */
  const webhook = async (request: { params: { secret: string }; body: unknown }) => {
    if (!billing.webhookSecretMatches(request.params.secret)) throw notFound();
    if ((request.body as { evento?: unknown } | null)?.evento === "teste_webhook") return { ok: true };
    try {
      const { processed } = await billing.handleCallback(request.body);
      return { ok: true, processed };
    } catch (err) {
      app.ctx.log.warn({ err: (err as Error).message }, "Pix callback: PSP lookup failed; the PSP will retry");
      throw new AppError("ERR_PIX_PROVIDER_UNAVAILABLE");
    }
  };
  for (const url of ["/billing/pix/webhook/:secret", "/billing/pix/webhook/:secret/pix"])
    app.post(url, { schema: { params: webhookParams, hide: true } }, (request) => webhook(request));

  if (app.ctx.config.billing.provider === "sandbox") {
    /** The sandbox PSP's "bank app": pays a charge as a payer would (then the PSP calls our webhook). */
    app.post("/pix-sandbox/pay", { schema: { body: pixSandboxPayBody, tags: ["billing"] } }, async (request) => {
      const { sandbox } = await billing.pixSetup();
      const cob = request.body.txid ? sandbox!.cob(request.body.txid) : sandbox!.findByBrCode(request.body.pixCopiaECola!);
      if (!cob) throw new AppError("ERR_NOT_FOUND");
      if (cob.status !== "ATIVA") throw new AppError("ERR_INVOICE_ALREADY_PAID");
      const { pix, webhookStatus } = await sandbox!.pay(cob.txid);
      return { txid: cob.txid, endToEndId: pix.endToEndId, webhookStatus };
    });
  }

  app.ctx.jobs.every(INVOICE_JOB, app.ctx.config.billing.invoiceGenerationCron, async () => {
    const created = await billing.generate();
    const paid = await billing.reconcileOpenCharges();
    if (created.length || paid) app.ctx.log.info({ created: created.length, paid }, "billing job");
  });
  app.addHook("onClose", () => billing.close());
}
