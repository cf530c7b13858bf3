/**
 * A real server child process (`node --import tsx src/main.ts`, the production entry point with its signal
 * handling) for the reliability tests: SIGTERM during traffic, kill -9 during sends.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Config } from "../../config/env";

export interface ServerProcess {
  child: ChildProcess;
  /** http://127.0.0.1:<port> */
  url: string;
  dataDir: string;
  /** Resolves with the exit code (or the signal's name) when the process ends. */
  exited: Promise<number | string>;
  output(): string;
}

const SERVER_ROOT = path.resolve(import.meta.dirname, "../../..");

/**
 * Starts the server on a free port with the harness's secrets; resolves once it listens, or at once with
 * `waitForListen: false` (then `url` is empty: for tests about the start-up itself).
 */
export async function startServerProcess(
  config: Config,
  env: Record<string, string | undefined>,
  { readyTimeoutMs = 90_000, waitForListen = true } = {},
): Promise<ServerProcess> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "balcao-child-"));
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: SERVER_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      HOST: "127.0.0.1",
      PORT: "0",
      DATA_DIR: dataDir,
      JWT_SECRET: config.jwtSecret,
      JWT_REFRESH_SECRET: config.jwtRefreshSecret,
      WEB_DIST: path.join(dataDir, "no-web"),
      CHANNELS_AUTOSTART: "true",
      SIMULATOR_ACK_DELAY_MS: "0",
      ...env,
    },
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown")));
  if (!waitForListen) return { child, url: "", dataDir, exited, output: () => output };
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start in ${readyTimeoutMs} ms:\n${output}`)), readyTimeoutMs);
    const check = () => {
      const m = /running at http:\/\/[^:]+:(\d+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout!.on("data", check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before listening:\n${output}`));
    });
  });
  return { child, url: `http://127.0.0.1:${port}`, dataDir, exited, output: () => output };
}
