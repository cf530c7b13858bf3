import pino, { type Logger } from "pino";
import { serializeError } from "./http/logSafe";
import { createChannelManager, type ChannelManager } from "./channels";
import type { Config } from "./config/env";
import type { Database } from "./db/client";
import { Notifications } from "./db/notifications";
import { EventBus } from "./events/bus";
import { JobRunner } from "./jobs/runner";
import { createServices, type Services } from "./services";
import { createPasswordHasher, type PasswordHasher } from "./modules/auth/passwords";
import { TokenService } from "./modules/auth/tokens";

/** What every module needs, built once per app instance (tests build several side by side). */
export interface AppContext {
  config: Config;
  database: Database;
  events: EventBus;
  passwords: PasswordHasher;
  tokens: TokenService;
  /** WhatsApp sessions this process owns, and their events (channels/manager.ts). */
  channels: ChannelManager;
  /** Durable jobs (jobs/runner.ts): what runs later or on another process. */
  jobs: JobRunner;
  /** The process's logger (Fastify logs through it too); never console.* in the server. */
  log: Logger;
  /** The process's one LISTEN/NOTIFY connection (db/notifications.ts). */
  notifications: Notifications;
  /** Services shared between modules (services.ts). */
  services: Services;
}

export function createContext(config: Config, database: Database): AppContext {
  const log = pino({
    level: config.logLevel,
    redact: ["req.headers.authorization", "req.headers.cookie", "*.password", "*.passwordHash", "*.token", "*.refreshToken"],
    // Every `{ err }` logged anywhere goes through logSafe: no failed-query parameters, no row values (issue 11).
    serializers: { err: serializeError },
  });
  const notifications = new Notifications(database, log.child({ name: "notifications" }));
  const events = new EventBus(database, log.child({ name: "outbox" }), notifications, { pollMs: config.outboxPollMs });
  const base = {
    config,
    database,
    notifications,
    events,
    log,
    jobs: new JobRunner(database, log.child({ name: "jobs" }), { pollSeconds: config.jobs.pollSeconds }),
    channels: createChannelManager(config, database, events),
    passwords: createPasswordHasher(config),
    tokens: new TokenService(config.jwtSecret, config.jwtRefreshSecret),
  };
  // The services read the context lazily, so they may be handed the object that is completed here.
  return Object.assign(base, { services: createServices(base as AppContext) });
}
