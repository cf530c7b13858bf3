import type { Config } from "../config/env";
import type { Database } from "../db/client";
import type { EventBus } from "../events/bus";
import { BaileysProvider } from "./baileys/provider";
import { loadCloudApiAccount } from "./cloudapi/account";
import { CloudApiProvider } from "./cloudapi/provider";
import { ChannelManager } from "./manager";
import { SimulatorProvider } from "./simulator/provider";

export { ChannelManager } from "./manager";
export type { ChannelEventContext, ChannelEventListener, ChannelCommand, StatusChange, StatusListener } from "./manager";
export * from "./types";

/** The app's channel manager with every provider this configuration enables. */
export function createChannelManager(config: Config, database: Database, events: EventBus): ChannelManager {
  const manager = new ChannelManager({ config, database, events });
  const c = config.channels;
  if (c.simulatorEnabled)
    manager.registerProvider(
      new SimulatorProvider(database.db, {
        ackDelayMs: c.simulatorAckDelayMs,
        invalidSuffix: c.simulatorInvalidSuffix,
        onPhoneChange: (companyId, connectionId, number) => events.publish({ type: "simulator.phone", companyId, connectionId, number }),
      }),
    );
  manager.registerProvider(
    new BaileysProvider({
      db: database.db,
      logger: manager.log.child({ provider: "baileys" }, { level: config.logLevel === "silent" ? "silent" : "warn" }),
      reconnectBaseMs: c.baileysReconnectBaseMs,
      reconnectMaxMs: c.baileysReconnectMaxMs,
      ffmpegPath: c.ffmpegPath,
      fetchVersion: config.env !== "test",
    }),
  );
  manager.registerProvider(
    new CloudApiProvider({
      baseUrl: c.cloudApiBaseUrl,
      version: c.cloudApiVersion,
      logger: manager.log.child({ provider: "cloud-api" }),
      ffmpegPath: c.ffmpegPath,
      loadAccount: (companyId, connectionId) => loadCloudApiAccount(database.db, companyId, connectionId),
    }),
  );
  return manager;
}
