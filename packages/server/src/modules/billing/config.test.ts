import { describe, expect, it } from "vitest";
import { BillingConfigError, EFI_PIX_URL, loadBillingConfig } from "./config";

describe("billing settings", () => {
  it("defaults to the sandbox PSP outside production and refuses it in production", () => {
    expect(loadBillingConfig({}, "development")).toMatchObject({ provider: "sandbox", pixKey: "pix@balcao.local", invoiceLeadDays: 20 });
    expect(() => loadBillingConfig({ PIX_PROVIDER: "sandbox" }, "production")).toThrow(BillingConfigError);
    expect(loadBillingConfig({}, "production")).toMatchObject({ provider: "static", pixKey: null });
  });

  it("needs the PSP credentials, certificate, key and a strong webhook secret for Efí in production", () => {
    expect(() => loadBillingConfig({ PIX_PROVIDER: "efi" }, "production")).toThrow(/PIX_KEY, PIX_PSP_CLIENT_ID, PIX_PSP_CLIENT_SECRET, PIX_PSP_CERT/);
    const efi = { PIX_PROVIDER: "efi", PIX_KEY: "k@x.com", PIX_PSP_CLIENT_ID: "id", PIX_PSP_CLIENT_SECRET: "s", PIX_PSP_CERT: "/etc/efi.p12" };
    expect(() => loadBillingConfig({ ...efi, PIX_WEBHOOK_SECRET: "short" }, "production", "https://app.example.com")).toThrow(/PIX_WEBHOOK_SECRET/);
    expect(() => loadBillingConfig({ ...efi, PIX_WEBHOOK_SECRET: "x".repeat(40) }, "production")).toThrow(/PUBLIC_URL/);
    const ok = loadBillingConfig({ ...efi, PIX_WEBHOOK_SECRET: "x".repeat(40) }, "production", "https://app.example.com");
    expect(ok).toMatchObject({
      provider: "efi",
      webhookBaseUrl: "https://app.example.com",
      psp: { baseUrl: EFI_PIX_URL, tokenPath: "/oauth/token", certPath: "/etc/efi.p12" },
    });
  });

  it("refuses a merchant name a BR Code cannot carry", () => {
    expect(() => loadBillingConfig({ PIX_MERCHANT_NAME: "x".repeat(26) }, "development")).toThrow(BillingConfigError);
  });
});
