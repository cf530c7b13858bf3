import { createStaticPix, hasError } from "pix-utils";
import type { PixCharge, PixChargeRequest, PixChargeState, PixProvider } from "./provider";
import { PixProviderError } from "./provider";

export interface StaticPixOptions {
  pixKey: string | null;
  merchantName: string;
  merchantCity: string;
}

/**
 * A static BR Code (EMV QRCPS-MPM) for the platform's Pix key, with the invoice's amount and a txid in field 62,
 * built with pix-utils (CRC16 included). Nobody tells us it was paid: a super user confirms it by hand.
 */
export class StaticPixProvider implements PixProvider {
  readonly kind = "static" as const;
  readonly confirmsPayments = false;

  constructor(private readonly options: StaticPixOptions) {}

  newTxid(invoiceId: number): string {
    // Field 62-05 allows 25 alphanumerics; one txid per invoice lets the receiver's statement name it.
    return `BALCAOFATURA${invoiceId}`.slice(0, 25);
  }

  async createCharge(request: PixChargeRequest): Promise<PixCharge> {
    if (!this.options.pixKey) throw new PixProviderError("PIX_KEY is not set");
    const pix = createStaticPix({
      merchantName: this.options.merchantName,
      merchantCity: this.options.merchantCity,
      pixKey: this.options.pixKey,
      infoAdicional: request.description,
      transactionAmount: request.amountCents / 100,
      txid: request.txid,
    });
    if (hasError(pix)) throw new PixProviderError(`BR Code: ${pix.message}`);
    return {
      txid: request.txid,
      status: "ATIVA",
      amount: (request.amountCents / 100).toFixed(2),
      brCode: pix.toBRCode(),
      createdAt: new Date(),
      expiresInSeconds: null,
    };
  }

  async getCharge(): Promise<PixChargeState | null> {
    return null;
  }

  async registerWebhook(): Promise<void> {}

  async close(): Promise<void> {}
}
