import path from "node:path";
import { ConfigError, loadConfig } from "./config/env";
import { EmbeddedPostgresError } from "./db/client";
import { SchemaTooNewError } from "./db/schemaVersion";
import { startServer } from "./server";

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Balcão cannot start: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  // Signals are taken from the start: one that arrives while the server is still starting (migrations, the
  // embedded database) is kept and acted on as soon as there is something to stop, instead of killing the
  // process with PostgreSQL half started.
  const signals: { pending?: string; stop?: (signal: string) => void } = {};
  const onSignal = (signal: string) => (signals.stop ? signals.stop(signal) : (signals.pending ??= signal));
  process.once("SIGINT", () => onSignal("SIGINT"));
  process.once("SIGTERM", () => onSignal("SIGTERM"));

  let started: Awaited<ReturnType<typeof startServer>>;
  try {
    started = await startServer(config);
  } catch (err) {
    // Data directory taken, wrong user, legacy data, a schema from a newer version…: the message says what to
    // do; a stack adds nothing.
    if (err instanceof EmbeddedPostgresError || err instanceof SchemaTooNewError) {
      console.error(`Balcão cannot start: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  // From process start (performance's time origin), not from here: module loading counts too.
  const bootSeconds = performance.now() / 1e3;
  const lines = [
    "",
    `  Balcão is running at ${started.url} (started in ${bootSeconds.toFixed(1)} s from process start, healthy)`,
    `  Database: ${config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `embedded PostgreSQL ${started.ctx.database.embedded?.version ?? ""} in ${path.join(config.dataDir, "postgres")} (socket only)`}`,
  ];
  if (started.backendUrl) lines.push(`  Backend listener (spec §7 paths, Socket.IO): ${started.backendUrl}`);
  if (config.generatedAdmin)
    lines.push(`  Login: ${config.generatedAdmin.email} / ${config.generatedAdmin.password}  (kept in ${config.dataDir}/secrets.json)`);
  else if (config.adminEmail) lines.push(`  Login: ${config.adminEmail} (password from ADMIN_PASSWORD)`);
  if (started.demo)
    lines.push(
      `  Demo company: ${started.demo.email} / ${started.demo.password}  (kept in ${config.dataDir}/demo.json; simulator at ${started.url}/simulator)`,
    );
  console.log(lines.join("\n") + "\n");

  signals.stop = (signal: string) => {
    console.log(`${signal} received, stopping`);
    void started
      .stop()
      .catch((err) => console.error(err))
      .then(() => process.exit(0));
  };
  if (signals.pending) signals.stop(signals.pending);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
