import { createChannelManager, type ChannelManager } from "./channels";
import type { Config } from "./config/env";
import type { Database } from "./db/client";
import { EventBus } from "./events/bus";
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
}

export function createContext(config: Config, database: Database): AppContext {
  const events = new EventBus();
  return {
    config,
    database,
    events,
    channels: createChannelManager(config, database, events),
    passwords: createPasswordHasher(config),
    tokens: new TokenService(config.jwtSecret, config.jwtRefreshSecret),
  };
}
