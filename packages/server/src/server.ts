import type { App } from "./app";
import { buildApp } from "./app";
import type { Config } from "./config/env";
import { createContext, type AppContext } from "./context";
import { openDatabase } from "./db/client";
import { seed } from "./seed";
import { listenBackend } from "./http/backend";

export interface Started {
  app: App;
  ctx: AppContext;
  url: string;
  /** The backend listener (spec §7 root paths), when BACKEND_PORT is set. */
  backendUrl?: string;
  createdAdmin: boolean;
  /** The demo company's admin login, when the seed created it on this start (embedded, non-production). */
  demo?: { email: string; password: string };
  stop(): Promise<void>;
}

/** Opens the database, migrates, seeds and listens: what `npm start` and the e2e server run. */
export async function startServer(config: Config): Promise<Started> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await database.migrate();
  const ctx = createContext(config, database);
  const { createdAdmin, demo } = await seed(ctx);
  const app = await buildApp(ctx);
  await app.listen({ port: config.port, host: config.host });
  let backendUrl: string | undefined;
  if (app.backendServer && config.backend) {
    const port = await listenBackend(app.backendServer, config.backend.port, config.backend.host);
    backendUrl = `http://${config.backend.host === "0.0.0.0" || config.backend.host === "::" ? "localhost" : config.backend.host}:${port}`;
  }
  // WhatsApp sessions: claim this process's share of the connections (one owner each, by lease).
  if (config.channels.autostart) await ctx.channels.start();
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  return {
    app,
    ctx,
    url: config.publicUrl ?? `http://localhost:${port}`,
    backendUrl,
    createdAdmin,
    demo,
    stop: async () => {
      await ctx.channels.stop();
      await app.close();
      await database.close();
    },
  };
}
