/**
 * Domain events, by name. Each module declares its own events by augmenting this interface
 * (`declare module "../../events/bus" { interface DomainEvents { "tickets.updated": {...} } }`),
 * so the union below grows without a central file to edit. Every event carries its companyId.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface DomainEvents {}

export type DomainEvent = { [K in keyof DomainEvents]: { type: K; companyId: number } & DomainEvents[K] }[keyof DomainEvents];

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

  /** Call after the transaction that produced the events has committed. */
  publish(...events: DomainEvent[]): void {
    for (const event of events)
      for (const listener of this.listeners) {
        Promise.resolve()
          .then(() => listener(event))
          .catch((err) => console.error("event listener failed", event.type, err));
      }
  }
}
