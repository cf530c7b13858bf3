/**
 * The operator's commands (`npm run cli -- <command>`, `npx balcao <command>`; docs/operations.md). Every
 * command is a function of (arguments, CliIo) returning an exit code, so the tests run them in-process
 * against the test database; src/cli.ts is only the process entry point.
 * Exit codes: 0 done / healthy, 1 failed / problems found, 2 wrong usage.
 */
import { parseArgs } from "node:util";
import { EmbeddedPostgresError } from "../db/embedded";
import { SchemaTooNewError } from "../db/schemaVersion";
import { backupCommand, restoreCommand } from "./backup";
import { CommandError, UsageError, type CliIo, type Command, type ParsedArgs } from "./common";
import { doctorCommand } from "./doctor";
import { migrateCommand } from "./migrate";
import { createSuperUserCommand, resetPasswordCommand } from "./users";

export { processIo, type CliIo } from "./common";

const COMMANDS: Command[] = [migrateCommand, createSuperUserCommand, resetPasswordCommand, backupCommand, restoreCommand, doctorCommand];

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    "Usage: balcao <command> [options]      (from the repository: npm run cli -- <command> [options])",
    "",
    "Commands:",
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    "Settings come from the environment, as for `npm start` (DATA_DIR, DATABASE_URL, NODE_ENV…).",
    "`balcao <command> --help` describes one command. Exit codes: 0 done, 1 failed or problems found, 2 wrong usage.",
  ].join("\n");
}

export function commandHelp(command: Command): string {
  return `Usage: ${command.usage}\n\n${command.summary}\n\n${command.help}`;
}

/** Runs one command line (argv without node and the script). Never throws; returns the exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    (name ? io.out : io.err)(usage());
    return name ? 0 : 2;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.err(`Unknown command "${name}".\n\n${usage()}`);
    return 2;
  }
  let args: ParsedArgs;
  try {
    const parsed = parseArgs({
      args: rest,
      options: { ...command.options, help: { type: "boolean", short: "h" } },
      allowPositionals: command.positionals ?? false,
      strict: true,
    });
    args = { values: parsed.values as ParsedArgs["values"], positionals: parsed.positionals };
  } catch (err) {
    io.err(`${(err as Error).message}\n\n${commandHelp(command)}`);
    return 2;
  }
  if (args.values.help) {
    io.out(commandHelp(command));
    return 0;
  }
  try {
    return await command.run(args, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`${err.message}\n\nUsage: ${command.usage}  (balcao ${command.name} --help)`);
      return 2;
    }
    if (err instanceof CommandError || err instanceof EmbeddedPostgresError || err instanceof SchemaTooNewError) {
      io.err(`${command.name} failed: ${err.message}`);
      return 1;
    }
    io.err(`${command.name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return 1;
  }
}
