import type { PixProviderKind } from "@balcao/shared";
import type { ApiPixClient } from "./apiPix";
import {
  formatCents,
  PixProviderError,
  randomAlphanumeric,
  type PixCharge,
  type PixChargeRequest,
  type PixChargeState,
  type PixProvider,
} from "./provider";

/** Charges through a PSP's API Pix v2 (Efí first; the sandbox PSP speaks the same API). */
export class ApiPixProvider implements PixProvider {
  readonly confirmsPayments = true;

  constructor(
    readonly kind: Exclude<PixProviderKind, "static">,
    private readonly client: ApiPixClient,
    private readonly pixKey: string,
    private readonly onClose: () => Promise<void> = async () => undefined,
  ) {}

  newTxid(invoiceId: number): string {
    // 32 characters: the invoice (readable in the PSP's statement) and randomness (a new charge per checkout).
    const prefix = `BLC${invoiceId.toString(36).toUpperCase().padStart(7, "0")}`;
    return prefix + randomAlphanumeric(32 - prefix.length);
  }

  async createCharge(request: PixChargeRequest): Promise<PixCharge> {
    const cob = await this.client.putCob(request.txid, {
      calendario: { expiracao: request.expiresInSeconds },
      valor: { original: formatCents(request.amountCents) },
      chave: this.pixKey,
      solicitacaoPagador: request.description.slice(0, 140),
    });
    if (!cob.pixCopiaECola) throw new PixProviderError("the PSP answered without pixCopiaECola");
    if (cob.valor?.original !== formatCents(request.amountCents)) throw new PixProviderError("the PSP created the charge with another amount");
    return {
      txid: cob.txid,
      status: cob.status,
      amount: cob.valor.original,
      brCode: cob.pixCopiaECola,
      createdAt: new Date(cob.calendario?.criacao ?? Date.now()),
      expiresInSeconds: cob.calendario?.expiracao ?? request.expiresInSeconds,
    };
  }

  async getCharge(txid: string): Promise<PixChargeState | null> {
    const cob = await this.client.getCob(txid);
    if (!cob) return null;
    return {
      txid: cob.txid,
      status: cob.status,
      amount: cob.valor?.original ?? "",
      payments: (cob.pix ?? []).map((p) => ({ endToEndId: p.endToEndId, txid: p.txid ?? cob.txid, amount: p.valor, paidAt: p.horario })),
    };
  }

  async registerWebhook(url: string): Promise<void> {
    await this.client.putWebhook(this.pixKey, url);
  }

  async close(): Promise<void> {
    this.client.close();
    await this.onClose();
  }
}
