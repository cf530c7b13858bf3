/**
 * `balcao backup` / `balcao restore`. Embedded database: an online base backup of DATA_DIR/postgres
 * (db/backup.ts, no client tools needed) and a restore that puts such a copy in place. PostgreSQL server
 * (DATABASE_URL): pg_dump's custom format and pg_restore, from the machine's PostgreSQL client tools.
 */
import { spawnSync } from "node:child_process";
import { chownSync, cpSync, existsSync, lstatSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { backupEmbedded } from "../db/backup";
import { EMBEDDED_SUBDIR } from "../db/client";
import { runningServer } from "../db/embedded";
import { CommandError, configFrom, UsageError, type CliIo, type Command } from "./common";

const stamp = () => new Date().toISOString().replace(/[:.]/g, "-");

/** Runs a PostgreSQL client tool (PG_DUMP / PG_RESTORE override the binary); throws a readable error. */
function runTool(io: CliIo, tool: "pg_dump" | "pg_restore", args: string[]): void {
  const bin = io.env[tool === "pg_dump" ? "PG_DUMP" : "PG_RESTORE"] || tool;
  const result = spawnSync(bin, args, { encoding: "utf8", env: { ...io.env }, stdio: ["ignore", "pipe", "pipe"] });
  if (result.error) {
    const missing = (result.error as NodeJS.ErrnoException).code === "ENOENT";
    throw new CommandError(
      missing
        ? `${bin} was not found. Install PostgreSQL's client tools of the server's major version or newer (Debian: apt-get install postgresql-client), or set ${tool === "pg_dump" ? "PG_DUMP" : "PG_RESTORE"} to its path.`
        : `${bin}: ${result.error.message}`,
    );
  }
  if (result.status !== 0) throw new CommandError(`${bin} exited with code ${result.status}:\n${(result.stderr || result.stdout).trim()}`);
}

/** As root, the restored cluster must belong to whoever ran the one it replaces (PostgreSQL refuses root). */
function chownTree(dir: string, uid: number, gid: number): void {
  chownSync(dir, uid, gid);
  for (const name of readdirSync(dir)) {
    const child = path.join(dir, name);
    if (lstatSync(child).isDirectory()) chownTree(child, uid, gid);
    else chownSync(child, uid, gid);
  }
}

export const backupCommand: Command = {
  name: "backup",
  summary: "Back up the database (embedded: a copy of DATA_DIR/postgres; DATABASE_URL: pg_dump).",
  usage: "balcao backup [<destination>]",
  help: [
    "Embedded database (no DATABASE_URL): an online backup while Balcão runs (or not), consistent as of its",
    "end, into <destination>/postgres (default: <DATA_DIR>-backup-<time>; must be new or empty). No client",
    "tools are needed.",
    "DATABASE_URL: `pg_dump --format=custom` into the file <destination> (default: balcao-<time>.dump in the",
    "current directory). Needs pg_dump of the server's major version or newer (PG_DUMP=<path> to choose one).",
    "Uploaded files live in DATA_DIR (media): copy that directory too.",
    "Restore with `balcao restore <backup> --yes`.",
  ].join("\n"),
  options: {},
  positionals: true,
  async run(args, io) {
    if (args.positionals.length > 1) throw new UsageError("Give at most one destination.");
    const config = configFrom(io);
    const given = args.positionals[0] ? path.resolve(io.cwd, args.positionals[0]) : undefined;
    const started = Date.now();
    const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
    if (config.databaseUrl) {
      const file = given ?? path.resolve(io.cwd, `balcao-${stamp()}.dump`);
      if (existsSync(file)) throw new CommandError(`${file} already exists: choose a new file name.`);
      runTool(io, "pg_dump", ["--format=custom", "--no-owner", `--file=${file}`, `--dbname=${config.databaseUrl}`]);
      io.out(`Backed up the PostgreSQL database to ${file} (${(statSync(file).size / 1024 / 1024).toFixed(1)} MB) in ${seconds()} s.`);
      io.out(`To restore: balcao restore ${file} --yes`);
      return 0;
    }
    const dest = given ?? `${config.dataDir}-backup-${stamp()}`;
    const result = await backupEmbedded(config.dataDir, dest, () => undefined);
    io.out(`Backed up ${(result.bytes / 1024 / 1024).toFixed(1)} MB to ${result.dir} in ${seconds()} s (consistent at WAL ${result.lsn}).`);
    io.out(`To restore: stop Balcão, then balcao restore ${dest} --yes`);
    return 0;
  },
};

export const restoreCommand: Command = {
  name: "restore",
  summary: "Replace the database with a backup made by `balcao backup` (asks for --yes).",
  usage: "balcao restore <backup> --yes",
  help: [
    "Embedded database: <backup> is a directory made by `balcao backup` (holding postgres/). Balcão must be",
    "stopped. The current DATA_DIR/postgres is kept beside it as postgres.before-restore-<time> (delete it",
    "once the restored data is checked); at the next start PostgreSQL replays the backup's WAL.",
    "DATABASE_URL: <backup> is a pg_dump file; `pg_restore --clean --if-exists --no-owner --single-transaction`",
    "replaces every object of the dump in that database (stop every Balcão node first).",
    "This is also the way back from an upgrade: restore the backup taken before it and run the old version.",
    "Options:",
    "  --yes  confirm that the current data is replaced",
  ].join("\n"),
  options: { yes: { type: "boolean" } },
  positionals: true,
  async run(args, io) {
    if (args.positionals.length !== 1) throw new UsageError("Give the backup to restore.");
    if (!args.values.yes) throw new UsageError("Restoring replaces the current data: add --yes to confirm.");
    const config = configFrom(io);
    const source = path.resolve(io.cwd, args.positionals[0]!);
    if (!existsSync(source)) throw new CommandError(`${source} does not exist.`);
    const started = Date.now();
    if (config.databaseUrl) {
      if (!statSync(source).isFile()) throw new CommandError(`${source} is not a pg_dump file (with DATABASE_URL, backups are files).`);
      runTool(io, "pg_restore", ["--clean", "--if-exists", "--no-owner", "--single-transaction", `--dbname=${config.databaseUrl}`, source]);
      io.out(`Restored ${source} into the PostgreSQL database in ${((Date.now() - started) / 1000).toFixed(1)} s. Start Balcão.`);
      return 0;
    }
    const copy = existsSync(path.join(source, EMBEDDED_SUBDIR, "PG_VERSION")) ? path.join(source, EMBEDDED_SUBDIR) : source;
    if (!existsSync(path.join(copy, "PG_VERSION")) || !existsSync(path.join(copy, "backup_label")))
      throw new CommandError(`${source} is not a backup made by \`balcao backup\` (no postgres/ with PG_VERSION and backup_label).`);
    const target = path.join(config.dataDir, EMBEDDED_SUBDIR);
    if (runningServer(target)) throw new CommandError(`Balcão (its embedded PostgreSQL) is running on ${target}: stop it first.`);
    let keptAs: string | undefined;
    const owner = existsSync(target) ? statSync(target) : undefined;
    if (existsSync(target) && readdirSync(target).length > 0) {
      keptAs = `${target}.before-restore-${stamp()}`;
      renameSync(target, keptAs);
    }
    try {
      cpSync(copy, target, { recursive: true });
      if (owner && process.getuid?.() === 0 && owner.uid !== 0) chownTree(target, owner.uid, owner.gid);
    } catch (err) {
      rmSync(target, { recursive: true, force: true });
      if (keptAs) renameSync(keptAs, target);
      throw new CommandError(`copying ${copy} failed: ${(err as Error).message}`);
    }
    io.out(`Restored ${copy} to ${target} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    if (keptAs) io.out(`The previous database is kept in ${keptAs}: delete it once the restored data is checked.`);
    io.out("Start Balcão: PostgreSQL replays the backup's WAL on its first start.");
    return 0;
  },
};
