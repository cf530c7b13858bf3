// `npm run dev`: the server in watch mode (tsx watch, restarts on every change under packages/server and
// packages/shared) and the Vite dev server (hot reload; proxies /api and /socket.io to the server, see
// packages/web/vite.config.ts) together, with prefixed output. Ctrl-C stops both; if one exits, the other
// is stopped too. The server listens on PORT (8080, the proxy's target); Vite prints its own URL (5173).
import { spawn } from "node:child_process";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const children = [
  { name: "server", color: 36, args: ["run", "dev", "--workspace", "@balcao/server"] },
  { name: "web", color: 35, args: ["run", "dev", "--workspace", "@balcao/web"] },
].map(({ name, color, args }) => {
  const child = spawn(npm, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, FORCE_COLOR: "1" } });
  const prefix = `\x1b[${color}m[${name}]\x1b[0m `;
  for (const stream of [child.stdout, child.stderr]) {
    let rest = "";
    stream.on("data", (chunk) => {
      const lines = (rest + chunk.toString()).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) process.stdout.write(prefix + line + "\n");
    });
  }
  return { name, child };
});

let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const { child } of children) if (child.exitCode === null) child.kill("SIGTERM");
  setTimeout(() => process.exit(code), 3_000).unref();
}
for (const { name, child } of children)
  child.on("exit", (code) => {
    if (!stopping) console.log(`[${name}] exited (${code ?? "signal"}); stopping the other`);
    stop(code ?? 0);
    if (children.every((c) => c.child.exitCode !== null || c.child.signalCode !== null)) process.exit(code ?? 0);
  });
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));
