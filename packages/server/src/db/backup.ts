/**
 * Online backup of the embedded PostgreSQL by our own process, with no client tools installed (the
 * package ships only the server; a distribution's pg_dump is usually older than PostgreSQL 18 and refuses
 * to dump it). PostgreSQL's low-level base backup: pg_backup_start → copy the data directory while the
 * server runs → pg_backup_stop (its backup_label tells recovery where to begin) → copy the WAL written
 * meanwhile. Restoring is putting the copy in place as DATA_DIR/postgres and starting Balcão: PostgreSQL
 * replays that WAL and the copy is consistent as of the end of the backup.
 */
import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { EMBEDDED_SUBDIR } from "./client";
import { EmbeddedPostgresError, runningServer, startEmbeddedPostgres } from "./embedded";

/** Recreated empty by the server, or meaningless in a copy (PostgreSQL's own base-backup exclusions). */
const SKIP_CONTENTS = new Set(["pg_wal", "pg_replslot", "pg_dynshmem", "pg_notify", "pg_serial", "pg_snapshots", "pg_stat_tmp", "pg_subtrans"]);
const SKIP_FILES = new Set(["postmaster.pid", "postmaster.opts", "backup_label", "tablespace_map"]);

function copyTree(from: string, to: string, top: boolean): number {
  mkdirSync(to, { recursive: true, mode: 0o700 });
  let bytes = 0;
  for (const name of readdirSync(from)) {
    if (top && SKIP_FILES.has(name)) continue;
    if (name.startsWith(".s.PGSQL.") || name.startsWith("pgsql_tmp")) continue;
    const src = path.join(from, name);
    const dst = path.join(to, name);
    let st;
    try {
      st = lstatSync(src);
    } catch {
      continue; // dropped while we copy: recovery replays the drop anyway
    }
    if (st.isDirectory()) {
      if (top && SKIP_CONTENTS.has(name)) mkdirSync(dst, { mode: 0o700 });
      else bytes += copyTree(src, dst, false);
    } else if (st.isFile()) {
      try {
        copyFileSync(src, dst);
        bytes += st.size;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      }
    }
  }
  return bytes;
}

export interface BackupResult {
  dir: string;
  bytes: number;
  /** The WAL position the copy is consistent at. */
  lsn: string;
}

/** Backs up DATA_DIR's embedded database into `dest/postgres` (dest must not exist or be empty). */
export async function backupEmbedded(dataDir: string, dest: string, log: (line: string) => void = () => undefined): Promise<BackupResult> {
  const dir = path.join(dataDir, EMBEDDED_SUBDIR);
  if (!existsSync(path.join(dir, "PG_VERSION"))) throw new EmbeddedPostgresError(`There is no embedded database in ${dir}.`);
  if (existsSync(dest) && readdirSync(dest).length > 0)
    throw new EmbeddedPostgresError(`${dest} is not empty: choose a new directory for the backup.`);
  const target = path.join(dest, EMBEDDED_SUBDIR);

  // Balcão usually runs: back up through its server. Otherwise start the server for the time of the copy.
  let connection = runningServer(dir);
  const own = connection ? undefined : await startEmbeddedPostgres({ dir, log });
  connection ??= own!.connection();
  const client = new pg.Client(connection);
  await client.connect();
  try {
    await client.query("SELECT pg_backup_start($1, true)", [`balcao ${new Date().toISOString()}`]);
    let bytes: number;
    let stop: { lsn: string; labelfile: string; spcmapfile: string | null; walfile: string };
    try {
      bytes = copyTree(dir, target, true);
    } finally {
      const { rows } = await client.query<typeof stop>(
        "SELECT lsn::text AS lsn, labelfile, spcmapfile, pg_walfile_name(lsn) AS walfile FROM pg_backup_stop(false)",
      );
      stop = rows[0]!;
    }
    writeFileSync(path.join(target, "backup_label"), stop.labelfile);
    if (stop.spcmapfile) writeFileSync(path.join(target, "tablespace_map"), stop.spcmapfile);
    // The WAL from the start of the copy to its end: what recovery replays to make the copy consistent.
    const first = /START WAL LOCATION: .* \(file ([0-9A-F]{24})\)/.exec(stop.labelfile)?.[1] ?? "";
    const walDir = path.join(dir, "pg_wal");
    mkdirSync(path.join(target, "pg_wal", "archive_status"), { recursive: true, mode: 0o700 });
    for (const name of readdirSync(walDir)) {
      const segment = /^[0-9A-F]{24}$/.test(name);
      if (segment ? name < first || name > stop.walfile : !name.endsWith(".history")) continue;
      try {
        copyFileSync(path.join(walDir, name), path.join(target, "pg_wal", name));
        bytes += lstatSync(path.join(walDir, name)).size;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      }
    }
    // Without WAL archiving a checkpoint may recycle a segment we need: check rather than hope.
    for (const needed of [first, stop.walfile])
      if (!needed || !existsSync(path.join(target, "pg_wal", needed)))
        throw new EmbeddedPostgresError(`The WAL segment ${needed || "?"} was recycled during the copy; run the backup again.`);
    return { dir: target, bytes, lsn: stop.lsn };
  } finally {
    await client.end().catch(() => undefined);
    await own?.stop();
  }
}
