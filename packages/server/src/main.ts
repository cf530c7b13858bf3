import { ConfigError, loadConfig } from "./config/env";
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
  const started = await startServer(config);
  const lines = [
    "",
    `  Balcão is running at ${started.url}`,
    `  Database: ${config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `embedded PGlite in ${config.dataDir}`}`,
  ];
  if (config.generatedAdmin) lines.push(`  Login: ${config.generatedAdmin.email} / ${config.generatedAdmin.password}  (kept in ${config.dataDir}/secrets.json)`);
  else if (config.adminEmail) lines.push(`  Login: ${config.adminEmail} (password from ADMIN_PASSWORD)`);
  if (started.demo) lines.push(`  Demo company: ${started.demo.email} / ${started.demo.password}  (kept in ${config.dataDir}/demo.json; simulator at ${started.url}/simulator)`);
  console.log(lines.join("\n") + "\n");

  const shutdown = async (signal: string) => {
    console.log(`${signal} received, stopping`);
    await started.stop().catch((err) => console.error(err));
    process.exit(0);
  };
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
