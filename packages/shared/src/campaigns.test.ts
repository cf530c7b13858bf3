import { describe, expect, it } from "vitest";
import { campaignBody, campaignSettingsBody, campaignSettingsFromRows, isCampaignEditable, renderCampaignMessage } from "./schemas/campaigns";

describe("campaign rules (spec §4, §5, §9)", () => {
  const now = new Date("2026-11-24T12:00:00Z");
  const at = (ms: number) => new Date(now.getTime() + ms);

  it("is editable when INATIVA, CANCELADA, or PROGRAMADA more than one hour ahead", () => {
    expect(isCampaignEditable({ status: "INATIVA", scheduledAt: null }, now)).toBe(true);
    expect(isCampaignEditable({ status: "CANCELADA", scheduledAt: at(-86_400_000) }, now)).toBe(true);
    expect(isCampaignEditable({ status: "PROGRAMADA", scheduledAt: at(3_600_001) }, now)).toBe(true);
    expect(isCampaignEditable({ status: "PROGRAMADA", scheduledAt: at(3_600_000) }, now)).toBe(false);
    expect(isCampaignEditable({ status: "EM_ANDAMENTO", scheduledAt: at(7_200_000) }, now)).toBe(false);
    expect(isCampaignEditable({ status: "FINALIZADA", scheduledAt: null }, now)).toBe(false);
  });

  it("fills {nome}, {numero}, {email} and custom variables, case-insensitively; unknown names stay", () => {
    const item = { name: "Ana", number: "5511987654321", email: "ana@example.com" };
    expect(renderCampaignMessage("Oi {nome} ({NUMERO}, {email}) — {cupom} {desconhecida}", item, [{ key: "Cupom", value: "NATAL10" }])).toBe(
      "Oi Ana (5511987654321, ana@example.com) — NATAL10 {desconhecida}",
    );
    // A custom variable cannot override the built-in ones.
    expect(renderCampaignMessage("{nome}", item, [{ key: "nome", value: "X" }])).toBe("Ana");
  });

  it("reads a blank schedule as none and requires connection, list and a message when scheduled", () => {
    expect(campaignBody.parse({ name: "Natal", scheduledAt: "" }).scheduledAt).toBeNull();
    const r = campaignBody.safeParse({ name: "Natal", scheduledAt: "2030-01-01T10:00:00-03:00" });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path.join("."))).toEqual(["whatsappId", "contactListId", "message1"]);
  });

  it("accepts only spec §9's interval options and no repeated variable keys; fills defaults", () => {
    expect(campaignSettingsBody.safeParse({ settings: { messageInterval: 15, greaterInterval: 50 } }).success).toBe(true);
    expect(campaignSettingsBody.safeParse({ settings: { longerIntervalAfter: 3 } }).success).toBe(false);
    expect(
      campaignSettingsBody.safeParse({
        settings: {
          variables: [
            { key: "a", value: "1" },
            { key: "A", value: "2" },
          ],
        },
      }).success,
    ).toBe(false);
    expect(campaignSettingsFromRows([{ key: "greaterInterval", value: 30 }])).toEqual({
      messageInterval: 20,
      longerIntervalAfter: 20,
      greaterInterval: 30,
      variables: [],
    });
  });
});
