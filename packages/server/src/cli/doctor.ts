/**
 * `balcao doctor`: checks what an operator would otherwise find out from a failing start or a stuck
 * connection — the configuration, the secrets, the data directory and its disk, the database (reachable,
 * migrations), and the WhatsApp connections' statuses — and prints what is wrong. Exit code 1 when a
 * problem was found (warnings alone keep 0).
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, statfsSync, statSync } from "node:fs";
import path from "node:path";
import { ConfigError, loadConfig, type Config } from "../config/env";
import { EMBEDDED_SUBDIR } from "../db/client";
import { runningServer } from "../db/embedded";
import { assertSchemaNotNewer, SchemaTooNewError } from "../db/schemaVersion";
import { type CliIo, type Command } from "./common";
import { appliedMigrations, knownMigrations } from "./migrate";

type Level = "ok" | "warn" | "problem";
interface Finding {
  level: Level;
  check: string;
  text: string;
}

/** Free space below which the database and uploads are at risk. */
const DISK_PROBLEM_BYTES = 512 * 1024 * 1024;
const DISK_WARN_BYTES = 2 * 1024 * 1024 * 1024;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

function checkSecrets(config: Config, findings: Finding[]): void {
  if (config.env === "production") {
    findings.push({ level: "ok", check: "secrets", text: "JWT_SECRET and JWT_REFRESH_SECRET are set, strong and different" });
  } else {
    const file = path.join(config.dataDir, "secrets.json");
    findings.push({
      level: config.env === "development" ? "warn" : "ok",
      check: "secrets",
      text: `NODE_ENV=${config.env}: JWT secrets come from ${existsSync(file) ? file : "the environment"}; set NODE_ENV=production with your own JWT_SECRET and JWT_REFRESH_SECRET on a server`,
    });
    if (existsSync(file) && (statSync(file).mode & 0o077) !== 0)
      findings.push({ level: "problem", check: "secrets", text: `${file} is readable by other users: chmod 600 ${file}` });
  }
  if (config.env === "production" && !config.publicUrl)
    findings.push({
      level: "warn",
      check: "configuration",
      text: "PUBLIC_URL is not set: links in e-mails, webhooks and payment callbacks use the request's host",
    });
}

function checkDisk(config: Config, findings: Finding[]): void {
  try {
    accessSync(config.dataDir, constants.W_OK);
  } catch {
    findings.push({ level: "problem", check: "data directory", text: `${config.dataDir} does not exist or is not writable by this user` });
    return;
  }
  findings.push({ level: "ok", check: "data directory", text: `${config.dataDir} is writable` });
  const fs = statfsSync(config.dataDir);
  const free = fs.bavail * fs.bsize;
  const total = fs.blocks * fs.bsize;
  const text = `${mb(free)} free of ${mb(total)} on the disk of ${config.dataDir}`;
  if (free < DISK_PROBLEM_BYTES)
    findings.push({ level: "problem", check: "disk", text: `${text}: below ${mb(DISK_PROBLEM_BYTES)}, free some space` });
  else if (free < DISK_WARN_BYTES) findings.push({ level: "warn", check: "disk", text: `${text}: below ${mb(DISK_WARN_BYTES)}` });
  else findings.push({ level: "ok", check: "disk", text });
}

function checkFfmpeg(config: Config, findings: Finding[]): void {
  const result = spawnSync(config.channels.ffmpegPath, ["-version"], { stdio: "ignore", timeout: 5_000 });
  if (result.error || result.status !== 0)
    findings.push({
      level: "warn",
      check: "ffmpeg",
      text: `${config.channels.ffmpegPath} does not run: voice notes and videos in formats WhatsApp does not play are sent unconverted (FFMPEG_PATH)`,
    });
  else findings.push({ level: "ok", check: "ffmpeg", text: `${config.channels.ffmpegPath} runs` });
}

async function checkDatabase(config: Config, io: CliIo, findings: Finding[]): Promise<void> {
  const where = config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `embedded PostgreSQL in ${path.join(config.dataDir, EMBEDDED_SUBDIR)}`;
  if (!config.databaseUrl) {
    const running = runningServer(path.join(config.dataDir, EMBEDDED_SUBDIR));
    findings.push({
      level: "ok",
      check: "database",
      text: running ? "the embedded PostgreSQL is running (Balcão is up)" : "the embedded PostgreSQL is not running: doctor starts it for the check",
    });
  }
  let database;
  try {
    database = await io.openDatabase(config);
  } catch (err) {
    findings.push({ level: "problem", check: "database", text: `cannot open the ${where}: ${(err as Error).message}` });
    return;
  }
  try {
    const started = Date.now();
    const { rows } = await database.pool.query<{ server_version: string }>("SHOW server_version");
    findings.push({ level: "ok", check: "database", text: `${where} answers (PostgreSQL ${rows[0]?.server_version}, ${Date.now() - started} ms)` });

    const known = knownMigrations();
    const applied = await appliedMigrations(database.pool);
    const tooNew = await assertSchemaNotNewer(database.pool).then(
      () => undefined,
      (err: unknown) => {
        if (err instanceof SchemaTooNewError) return err;
        throw err;
      },
    );
    if (tooNew) findings.push({ level: "problem", check: "migrations", text: tooNew.message });
    else if (applied < known.length)
      findings.push({
        level: "warn",
        check: "migrations",
        text: `${known.length - applied} pending (${known.slice(applied).join(", ")}): applied at the next start or by \`balcao migrate\``,
      });
    else findings.push({ level: "ok", check: "migrations", text: `up to date (${applied}, latest ${known[known.length - 1]})` });

    if (applied === 0) return;
    const { rows: connections } = await database.pool.query<{ id: number; company_id: number; name: string; status: string; channel: string }>(
      "SELECT id, company_id, name, status, channel FROM connections ORDER BY company_id, id",
    );
    const byStatus = new Map<string, number>();
    for (const c of connections) byStatus.set(c.status, (byStatus.get(c.status) ?? 0) + 1);
    const summary = [...byStatus].map(([status, n]) => `${n} ${status}`).join(", ");
    findings.push({
      level: "ok",
      check: "connections",
      text: connections.length
        ? `${connections.length} WhatsApp connection${connections.length === 1 ? "" : "s"}: ${summary}`
        : "no WhatsApp connections yet",
    });
    const down = connections.filter((c) => c.status !== "CONNECTED");
    for (const c of down.slice(0, 20))
      findings.push({
        level: "warn",
        check: "connections",
        text: `connection ${c.id} "${c.name}" (company ${c.company_id}, ${c.channel}) is ${c.status}: open it in the app (Conexões) to reconnect or read the QR code`,
      });
    if (down.length > 20) findings.push({ level: "warn", check: "connections", text: `…and ${down.length - 20} more not connected` });
  } catch (err) {
    findings.push({ level: "problem", check: "database", text: `${where}: ${(err as Error).message}` });
  } finally {
    await database.close().catch(() => undefined);
  }
}

export const doctorCommand: Command = {
  name: "doctor",
  summary: "Check the configuration, secrets, disk, database and connections; print what is wrong.",
  usage: "balcao doctor",
  help: [
    "Reads the settings as `npm start` does and checks: that they are valid; the JWT secrets; DATA_DIR",
    "(writable, free disk space: problem below 512 MB, warning below 2 GB); ffmpeg; the database (reachable,",
    "its version, pending or unknown migrations); and every WhatsApp connection's status.",
    "Each line starts with ok, warn or PROBLEM. Exit code 1 when there is a problem, 0 otherwise.",
    "Safe while Balcão runs: it only reads (with the embedded database stopped, it starts it for the check).",
  ].join("\n"),
  options: {},
  async run(_args, io) {
    const findings: Finding[] = [];
    let config: Config | undefined;
    try {
      config = loadConfig(io.env);
      findings.push({ level: "ok", check: "configuration", text: `valid (NODE_ENV=${config.env}, DATA_DIR=${config.dataDir})` });
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      findings.push({ level: "problem", check: "configuration", text: err.message });
    }
    if (config) {
      checkSecrets(config, findings);
      checkDisk(config, findings);
      checkFfmpeg(config, findings);
      await checkDatabase(config, io, findings);
    }
    const label: Record<Level, string> = { ok: "ok     ", warn: "warn   ", problem: "PROBLEM" };
    for (const f of findings) (f.level === "problem" ? io.err : io.out)(`${label[f.level]} ${f.check}: ${f.text}`);
    const problems = findings.filter((f) => f.level === "problem").length;
    const warnings = findings.filter((f) => f.level === "warn").length;
    io.out(
      problems
        ? `${problems} problem${problems === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}.`
        : `No problems (${warnings} warning${warnings === 1 ? "" : "s"}).`,
    );
    return problems ? 1 : 0;
  },
};
