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
}

export function createContext(config: Config, database: Database): AppContext {
  return {
    config,
    database,
    events: new EventBus(),
    passwords: createPasswordHasher(config),
    tokens: new TokenService(config.jwtSecret, config.jwtRefreshSecret),
  };
}
