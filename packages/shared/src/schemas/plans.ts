export interface PlanDTO {
  id: number;
  name: string;
  users: number;
  connections: number;
  queues: number;
  /** Monthly price in BRL. */
  value: number;
}
