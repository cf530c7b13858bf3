import type { AnotherLoginEvent, SettingDTO, UserDTO } from "@balcao/shared";

/** Every domain event. Commands publish them after their transaction commits. */
export type DomainEvent =
  | { type: "users.created" | "users.updated"; companyId: number; user: UserDTO }
  | { type: "users.deleted"; companyId: number; userId: number }
  | { type: "auth.anotherLogin"; companyId: number; userId: number; payload: AnotherLoginEvent; revokedSessionIds: string[] }
  | { type: "settings.updated"; companyId: number; setting: SettingDTO };

export type DomainEventListener = (event: DomainEvent) => void | Promise<void>;

/** In-process fan-out; cross-process delivery to browsers is Socket.IO's adapter's job. */
export class EventBus {
  private listeners: DomainEventListener[] = [];

  subscribe(listener: DomainEventListener): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  publish(...events: DomainEvent[]): void {
    for (const event of events)
      for (const listener of this.listeners) {
        Promise.resolve()
          .then(() => listener(event))
          .catch((err) => console.error("event listener failed", event.type, err));
      }
  }
}
