import type { ContactDTO } from "@balcao/shared";

/** A contact for tests. */
export function makeContact(overrides: Partial<ContactDTO> = {}): ContactDTO {
  return {
    id: 7,
    companyId: 10,
    name: "Maria Souza",
    number: "5511987654321",
    email: "maria@cliente.test",
    profilePicUrl: "",
    isGroup: false,
    createdAt: "2025-01-01T00:00:00.000Z",
    updatedAt: "2025-01-01T00:00:00.000Z",
    ...overrides,
  };
}
