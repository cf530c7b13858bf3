/** What every operator command shares (cli/index.ts runs them). */
import type { ParseArgsConfig } from "node:util";
import { ConfigError, loadConfig, type Config } from "../config/env";
import { openDatabaseForCommand, type Database } from "../db/client";
import { EmbeddedPostgresError } from "../db/embedded";

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /** The environment settings are read from (process.env in production). */
  env: NodeJS.ProcessEnv;
  /** Opens the database the settings name (tests hand in the test database). */
  openDatabase(config: Config): Promise<Database>;
  /** Where relative paths given on the command line are resolved from. */
  cwd: string;
}

export function processIo(): CliIo {
  return {
    out: (line) => process.stdout.write(line + "\n"),
    err: (line) => process.stderr.write(line + "\n"),
    env: process.env,
    openDatabase: (config) => openDatabaseForCommand({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }),
    cwd: process.env.INIT_CWD ?? process.cwd(),
  };
}

/** A mistake in how the command was called: printed with the command's usage, exit code 2. */
export class UsageError extends Error {}
/** A failure the operator can act on: printed without a stack, exit code 1. */
export class CommandError extends Error {}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  /** Longer help: what it does, options, examples. */
  help: string;
  options: NonNullable<ParseArgsConfig["options"]>;
  /** Whether positional arguments are accepted. */
  positionals?: boolean;
  run(args: ParsedArgs, io: CliIo): Promise<number>;
}

export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** Settings as the server reads them; a ConfigError becomes a CommandError with the same message. */
export function configFrom(io: CliIo): Config {
  try {
    return loadConfig(io.env);
  } catch (err) {
    if (err instanceof ConfigError) throw new CommandError(`The configuration is invalid: ${err.message}`);
    throw err;
  }
}

/** Opens the database for a command and always closes it. */
export async function withDatabase<T>(io: CliIo, config: Config, fn: (database: Database) => Promise<T>): Promise<T> {
  let database: Database;
  try {
    database = await io.openDatabase(config);
  } catch (err) {
    if (err instanceof EmbeddedPostgresError) throw err;
    const where = config.databaseUrl ? "the PostgreSQL server in DATABASE_URL" : `the embedded database in ${config.dataDir}`;
    throw new CommandError(`cannot open ${where}: ${(err as Error).message}`);
  }
  try {
    return await fn(database);
  } finally {
    await database.close().catch(() => undefined);
  }
}
