/** `npm run db:backup [-- <directory>]`: an online backup of the embedded database (db/backup.ts). */
import path from "node:path";
import { loadConfig } from "../config/env";
import { backupEmbedded } from "./backup";
import { EmbeddedPostgresError } from "./embedded";

const config = loadConfig();
const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const dest = process.argv[2] ? path.resolve(process.env.INIT_CWD ?? process.cwd(), process.argv[2]) : `${config.dataDir}-backup-${stamp}`;
try {
  if (config.databaseUrl) throw new EmbeddedPostgresError("DATABASE_URL is set: back that server up with its own tools (pg_dump, pg_basebackup).");
  const started = Date.now();
  const result = await backupEmbedded(config.dataDir, dest, (line) => console.log(line));
  console.log(
    `Backed up ${(result.bytes / 1024 / 1024).toFixed(1)} MB to ${result.dir} in ${((Date.now() - started) / 1000).toFixed(1)} s (consistent at WAL ${result.lsn}).`,
  );
  console.log(`To restore: stop Balcão, move ${path.join(config.dataDir, "postgres")} aside, copy ${result.dir} to its place, start Balcão.`);
} catch (err) {
  console.error(err instanceof EmbeddedPostgresError ? `Backup failed: ${err.message}` : err);
  process.exit(1);
}
