import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig, type Config } from "../config/env";

/** Test settings in a new temporary DATA_DIR (returned, for the caller to remove), with fresh secrets. */
export function testConfig(prefix: string, env: Record<string, string> = {}): { config: Config; dataDir: string } {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString("hex"),
    JWT_REFRESH_SECRET: randomBytes(32).toString("hex"),
    WEB_DIST: path.join(dataDir, "no-web"),
    ...env,
  });
  return { config, dataDir };
}
