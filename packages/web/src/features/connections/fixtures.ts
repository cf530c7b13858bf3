import type { ConnectionDTO } from "@balcao/shared";

export function makeConnection(overrides: Partial<ConnectionDTO> = {}): ConnectionDTO {
  return {
    id: 1,
    name: "Principal",
    status: "CONNECTED",
    qrcode: "",
    retries: 0,
    isDefault: false,
    greetingMessage: "",
    complationMessage: "",
    outOfHoursMessage: "",
    ratingMessage: "",
    farewellMessage: "",
    token: "tok",
    provider: "beta",
    channel: "simulator",
    timeSendQueue: 0,
    sendIdQueue: 0,
    number: null,
    queues: [],
    createdAt: "2025-01-01T00:00:00.000Z",
    updatedAt: "2025-01-01T12:00:00.000Z",
    ...overrides,
  };
}
