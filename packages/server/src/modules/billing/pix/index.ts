import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import type { BillingConfig } from "../config";
import { ApiPixClient, type ApiPixTls } from "./apiPix";
import { ApiPixProvider } from "./dynamicProvider";
import type { FakePsp } from "./fakePsp";
import type { PixProvider } from "./provider";
import { StaticPixProvider } from "./staticProvider";

export type { PixProvider } from "./provider";

export interface PixSetup {
  provider: PixProvider;
  /** Only with PIX_PROVIDER=sandbox: the local PSP, so its "bank app" route can pay charges. */
  sandbox?: FakePsp;
}

/** Builds the configured provider. The sandbox starts its local PSP (certificates made on the spot). */
export async function createPix(config: BillingConfig): Promise<PixSetup> {
  if (config.provider === "static") return { provider: new StaticPixProvider(config) };
  if (config.provider === "efi") {
    const psp = config.psp!;
    const file = readFileSync(psp.certPath);
    const isPkcs12 = /\.(p12|pfx)$/i.test(psp.certPath);
    const tls: ApiPixTls = isPkcs12 ? { pfx: file, passphrase: psp.certPassphrase ?? "" } : { cert: file, key: file, passphrase: psp.certPassphrase };
    if (psp.caPath) tls.ca = readFileSync(psp.caPath);
    const client = new ApiPixClient({ baseUrl: psp.baseUrl, tokenPath: psp.tokenPath, clientId: psp.clientId, clientSecret: psp.clientSecret, tls });
    return { provider: new ApiPixProvider("efi", client, config.pixKey!) };
  }
  // Loaded only here: the sandbox is the one place that needs certificate generation at run time.
  const [{ createMutualTlsMaterial }, { FakePsp }] = await Promise.all([import("./certificates"), import("./fakePsp")]);
  const material = createMutualTlsMaterial();
  const clientId = `Client_Id_${randomBytes(8).toString("hex")}`;
  const clientSecret = `Client_Secret_${randomBytes(16).toString("hex")}`;
  const sandbox = new FakePsp({
    clientId,
    clientSecret,
    tls: { cert: material.server.cert, key: material.server.key, ca: material.ca.cert },
    merchantName: config.merchantName,
    merchantCity: config.merchantCity,
  });
  const baseUrl = await sandbox.listen();
  const client = new ApiPixClient({
    baseUrl,
    tokenPath: "/oauth/token",
    clientId,
    clientSecret,
    tls: { pfx: material.clientP12, passphrase: material.clientPassphrase, ca: material.ca.cert },
  });
  return { provider: new ApiPixProvider("sandbox", client, config.pixKey!, () => sandbox.close()), sandbox };
}
