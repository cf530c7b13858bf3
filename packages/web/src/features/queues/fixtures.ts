import { DEFAULT_QUEUE_SCHEDULES, type QueueDTO, type QueueOptionDTO } from "@balcao/shared";

export function makeQueue(overrides: Partial<QueueDTO> = {}): QueueDTO {
  return {
    id: 1,
    companyId: 10,
    name: "Vendas",
    color: "#1565C0",
    greetingMessage: "Olá! Bem-vindo às vendas.",
    outOfHoursMessage: "",
    complationMessage: "",
    ratingMessage: "",
    schedules: DEFAULT_QUEUE_SCHEDULES,
    orderQueue: null,
    createdAt: "2025-01-01T00:00:00.000Z",
    updatedAt: "2025-01-01T00:00:00.000Z",
    ...overrides,
  };
}

export function makeOption(overrides: Partial<QueueOptionDTO> = {}): QueueOptionDTO {
  return {
    id: 1,
    queueId: 1,
    parentId: null,
    title: "Comprar",
    message: "",
    option: "1",
    children: [],
    createdAt: "2025-01-01T00:00:00.000Z",
    updatedAt: "2025-01-01T00:00:00.000Z",
    ...overrides,
  };
}
