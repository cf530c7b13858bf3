#!/usr/bin/env node
// `balcao <command>`: the operator's commands (src/cli/index.ts). Runs the compiled dist/bin/cli.js
// (`npm run build`), or the TypeScript sources through tsx when the server was not compiled.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

process.setSourceMapsEnabled(true);
const compiled = new URL("../dist/bin/cli.js", import.meta.url);
if (existsSync(fileURLToPath(compiled))) {
  await import(compiled.href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(new URL("../src/cli.ts", import.meta.url).href);
}
