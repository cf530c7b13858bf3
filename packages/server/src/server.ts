import type { App } from "./app";
import { buildApp } from "./app";
import type { Config } from "./config/env";
import { createContext, type AppContext } from "./context";
import { openDatabase } from "./db/client";
import { seed } from "./db/seed";

export interface Started {
  app: App;
  ctx: AppContext;
  url: string;
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
  // WhatsApp sessions: claim this process's share of the connections (one owner each, by lease).
  if (config.channels.autostart) await ctx.channels.start();
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  return {
    app,
    ctx,
    url: config.publicUrl ?? `http://localhost:${port}`,
    createdAdmin,
    demo,
    stop: async () => {
      await ctx.channels.stop();
      await app.close();
      await database.close();
    },
  };
}
