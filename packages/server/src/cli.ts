/** Process entry point of the operator's commands (`balcao`, `npm run cli -- …`): see cli/index.ts. */
import { processIo, runCli } from "./cli/index";

const code = await runCli(process.argv.slice(2), processIo());
process.exitCode = code;
// Everything is closed by now; if a library still holds a handle, do not hang the operator's shell.
setTimeout(() => process.exit(code), 2_000).unref();
