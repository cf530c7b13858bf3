import type { QuickMessageDTO } from "@balcao/shared";

/** A quick message for tests. */
export const quick = (overrides: Partial<QuickMessageDTO> = {}): QuickMessageDTO => ({
  id: 5,
  companyId: 10,
  shortcode: "saudacao",
  message: "Olá! Como posso ajudar?",
  userId: 1,
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
  ...overrides,
});
