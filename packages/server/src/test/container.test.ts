import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Issue 23: the Docker image cannot be built where no daemon answers, so scripts/container-check.mjs (run by
 * scripts/docker-check.sh before it looks for Docker) checks Dockerfile and compose.yaml statically. It builds
 * nothing; these tests show it passes on the repository's files and names each break of a tampered copy.
 */

const ROOT = path.resolve(import.meta.dirname, "../../../..");
const SCRIPT = path.join(ROOT, "scripts", "container-check.mjs");

function check(root?: string) {
  const r = spawnSync(process.execPath, [SCRIPT, ...(root ? [root] : [])], { encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** A build context that is the repository except for the files given (the rest are symlinks to it). */
function contextWith(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "balcao-container-"));
  for (const entry of readdirSync(ROOT)) if (!(entry in files) && entry !== ".git") symlinkSync(path.join(ROOT, entry), path.join(dir, entry));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

describe("scripts/container-check.mjs (static checks of the container files)", () => {
  it("passes on the repository's Dockerfile and compose.yaml, saying that nothing was built", () => {
    const r = check();
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain("container-check: OK");
    expect(r.out).toContain("nothing was built");
  });

  it("names each break of a tampered Dockerfile and compose.yaml, and exits 1", () => {
    const dockerfile = readFileSync(path.join(ROOT, "Dockerfile"), "utf8")
      .replace(/^USER node$/m, "")
      .replace("/api/health", "/health")
      .replace("COPY --from=deps /app/node_modules", "COPY --from=dependencies /app/node_modules")
      .replace("COPY tsconfig.base.json ./", "COPY tsconfig.missing.json ./")
      .replace(/^CMD \[.*\]$/m, "CMD node packages/server/dist/bin/main.js");
    const compose = readFileSync(path.join(ROOT, "compose.yaml"), "utf8")
      .replace("condition: service_healthy", "condition: service_started")
      .replace("    restart: unless-stopped\n    depends_on:", "    restrat: unless-stopped\n    depends_on:")
      .replace("#     - ./deploy/Caddyfile:/etc/caddy/Caddyfile:ro", "#     - ./deploy/Missingfile:/etc/caddy/Caddyfile:ro");
    const dir = contextWith({ Dockerfile: dockerfile, "compose.yaml": compose });
    try {
      const r = check(dir);
      expect(r.code).toBe(1);
      const problems = r.err.trim().split("\n");
      expect(problems).toEqual([
        expect.stringMatching(/^container-check: Dockerfile:\d+: COPY tsconfig\.missing\.json: not in the build context$/),
        expect.stringMatching(/^container-check: Dockerfile:\d+: COPY --from=dependencies names no earlier stage \(build, deps\)$/),
        "container-check: Dockerfile: the runtime stage sets no USER (it would run as root)",
        "container-check: Dockerfile: the runtime stage has no HEALTHCHECK on /api/health",
        "container-check: Dockerfile: the runtime CMD is not in exec form (a JSON array): signals would go to a shell",
        'container-check: compose.yaml: service balcao: unknown key "restrat"',
        "container-check: compose.yaml: balcao does not wait for postgres to be healthy",
        'container-check: compose.yaml (replicas option uncommented): service balcao: unknown key "restrat"',
        "container-check: compose.yaml (replicas option uncommented): service proxy: mounts ./deploy/Missingfile, which does not exist",
      ]);
      expect(r.out).toBe("");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
