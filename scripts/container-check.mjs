// Static checks of the container files (issue 23), for machines without a Docker daemon: they do not build or
// run the image — scripts/docker-check.sh does that where Docker answers — but catch what a broken edit of
// Dockerfile or compose.yaml would otherwise only show at `docker build` / `docker compose up`.
//   node scripts/container-check.mjs [repository root]   → one line per problem, exit 1; "OK …", exit 0
//
// Dockerfile: instructions known, the stages build → deps → runtime with runtime last, every `COPY --from`
// naming an earlier stage, every copied path of the build context present and not excluded by .dockerignore,
// and the runtime stage's contract: a non-root USER, HEALTHCHECK on /api/health, the /data VOLUME, EXPOSE of
// its PORT, an exec-form CMD running the compiled server.
// compose.yaml: valid YAML with known top-level and service keys, the postgres and balcao services wired as
// documented (health-gated depends_on, DATABASE_URL to the postgres service, the JWT secrets required, named
// volumes declared), and the commented replicas-behind-a-proxy option still valid once uncommented.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const INSTRUCTIONS = new Set([
  "FROM",
  "RUN",
  "CMD",
  "LABEL",
  "EXPOSE",
  "ENV",
  "ADD",
  "COPY",
  "ENTRYPOINT",
  "VOLUME",
  "USER",
  "WORKDIR",
  "ARG",
  "ONBUILD",
  "STOPSIGNAL",
  "HEALTHCHECK",
  "SHELL",
]);
const COMPOSE_TOP = new Set(["name", "services", "volumes", "networks", "configs", "secrets", "include", "version"]);
const SERVICE_KEYS = new Set([
  "build",
  "image",
  "restart",
  "depends_on",
  "environment",
  "env_file",
  "volumes",
  "ports",
  "expose",
  "healthcheck",
  "deploy",
  "command",
  "entrypoint",
  "user",
  "working_dir",
  "networks",
  "labels",
  "logging",
  "stop_grace_period",
  "stop_signal",
  "container_name",
  "hostname",
  "init",
  "read_only",
  "tmpfs",
  "ulimits",
  "cap_add",
  "cap_drop",
  "security_opt",
  "profiles",
  "secrets",
  "configs",
  "extra_hosts",
  "shm_size",
  "mem_limit",
  "cpus",
  "pull_policy",
  "develop",
]);

/** Dockerfile instructions with line continuations joined and comments dropped: { line, keyword, args }. */
export function dockerInstructions(text) {
  const out = [];
  let buffer = "";
  let start = 0;
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (!buffer && (line === "" || line.startsWith("#"))) return;
    if (buffer && line.startsWith("#")) return;
    if (!buffer) start = i + 1;
    buffer += (buffer ? " " : "") + line.replace(/\\$/, "").trim();
    if (line.endsWith("\\")) return;
    const [keyword, ...rest] = buffer.split(/\s+/);
    out.push({ line: start, keyword: keyword.toUpperCase(), args: rest.join(" ") });
    buffer = "";
  });
  return out;
}

function ignoredBy(patterns, source) {
  const clean = source.replace(/\/$/, "");
  return patterns.some((p) => p === clean || (p.startsWith("**/") && path.basename(clean) === p.slice(3)));
}

export function checkDockerfile(root) {
  const problems = [];
  const file = path.join(root, "Dockerfile");
  if (!existsSync(file)) return ["Dockerfile: missing"];
  const ignore = existsSync(path.join(root, ".dockerignore"))
    ? readFileSync(path.join(root, ".dockerignore"), "utf8")
        .split("\n")
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith("#"))
    : [];
  const stages = [];
  for (const ins of dockerInstructions(readFileSync(file, "utf8"))) {
    const at = `Dockerfile:${ins.line}`;
    if (!INSTRUCTIONS.has(ins.keyword)) problems.push(`${at}: unknown instruction ${ins.keyword}`);
    if (ins.keyword === "FROM") {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(ins.args);
      if (!m) problems.push(`${at}: FROM ${ins.args} is not "FROM image [AS name]"`);
      stages.push({ name: m?.[2]?.toLowerCase() ?? String(stages.length), line: ins.line, instructions: [] });
      continue;
    }
    const stage = stages[stages.length - 1];
    if (!stage) {
      if (ins.keyword !== "ARG") problems.push(`${at}: ${ins.keyword} before the first FROM`);
      continue;
    }
    stage.instructions.push(ins);
    if (ins.keyword === "COPY") {
      const words = ins.args.split(/\s+/);
      const from = words
        .find((w) => w.startsWith("--from="))
        ?.slice(7)
        .toLowerCase();
      const paths = words.filter((w) => !w.startsWith("--"));
      if (paths.length < 2) problems.push(`${at}: COPY needs a source and a destination`);
      if (from !== undefined) {
        const earlier = stages.slice(0, -1).map((s) => s.name);
        if (!earlier.includes(from)) problems.push(`${at}: COPY --from=${from} names no earlier stage (${earlier.join(", ")})`);
        continue;
      }
      for (const source of paths.slice(0, -1)) {
        if (!existsSync(path.join(root, source))) problems.push(`${at}: COPY ${source}: not in the build context`);
        else if (ignoredBy(ignore, source)) problems.push(`${at}: COPY ${source}: excluded by .dockerignore`);
      }
    }
  }
  const names = stages.map((s) => s.name);
  for (const name of ["build", "deps", "runtime"])
    if (!names.includes(name)) problems.push(`Dockerfile: no "${name}" stage (stages: ${names.join(", ")})`);
  const runtime = stages[stages.length - 1];
  if (!runtime || runtime.name !== "runtime") return [...problems, `Dockerfile: the last stage is "${runtime?.name}", not "runtime"`];
  const last = (keyword) => runtime.instructions.filter((i) => i.keyword === keyword).pop();
  const user = last("USER");
  if (!user) problems.push("Dockerfile: the runtime stage sets no USER (it would run as root)");
  else if (/^(root|0)(:|$)/.test(user.args)) problems.push(`Dockerfile:${user.line}: the runtime stage runs as ${user.args}`);
  const health = last("HEALTHCHECK");
  if (!health || !health.args.includes("/api/health")) problems.push("Dockerfile: the runtime stage has no HEALTHCHECK on /api/health");
  const volume = last("VOLUME");
  if (!volume || !volume.args.includes("/data")) problems.push("Dockerfile: the runtime stage declares no /data VOLUME");
  const env = runtime.instructions
    .filter((i) => i.keyword === "ENV")
    .map((i) => i.args)
    .join(" ");
  const port = /\bPORT=(\d+)/.exec(env)?.[1];
  if (!/\bDATA_DIR=\/data\b/.test(env)) problems.push("Dockerfile: the runtime stage does not set DATA_DIR=/data");
  if (!port) problems.push("Dockerfile: the runtime stage does not set PORT");
  else if (!runtime.instructions.some((i) => i.keyword === "EXPOSE" && i.args.split(/\s+/).includes(port)))
    problems.push(`Dockerfile: the runtime stage does not EXPOSE its PORT ${port}`);
  const cmd = last("CMD");
  let argv;
  try {
    argv = cmd ? JSON.parse(cmd.args) : undefined;
  } catch {
    argv = undefined;
  }
  if (!Array.isArray(argv)) problems.push("Dockerfile: the runtime CMD is not in exec form (a JSON array): signals would go to a shell");
  else if (argv[0] !== "node" || !argv.includes("packages/server/dist/bin/main.js"))
    problems.push(`Dockerfile: the runtime CMD does not run node packages/server/dist/bin/main.js (${cmd.args})`);
  return problems;
}

function checkServices(doc, where, root) {
  const problems = [];
  if (!doc || typeof doc !== "object") return [`${where}: not a YAML mapping`];
  for (const key of Object.keys(doc)) if (!COMPOSE_TOP.has(key) && !key.startsWith("x-")) problems.push(`${where}: unknown top-level key "${key}"`);
  const services = doc.services ?? {};
  const volumes = Object.keys(doc.volumes ?? {});
  for (const [name, service] of Object.entries(services)) {
    for (const key of Object.keys(service ?? {})) if (!SERVICE_KEYS.has(key)) problems.push(`${where}: service ${name}: unknown key "${key}"`);
    if (!service?.image && !service?.build) problems.push(`${where}: service ${name}: neither image nor build`);
    for (const mount of service?.volumes ?? []) {
      const source = String(typeof mount === "string" ? mount.split(":")[0] : mount.source);
      if (source.startsWith(".") || source.startsWith("/")) {
        if (!existsSync(path.join(root, source))) problems.push(`${where}: service ${name}: mounts ${source}, which does not exist`);
      } else if (!volumes.includes(source)) problems.push(`${where}: service ${name}: volume "${source}" is not declared under volumes`);
    }
    const deps = service?.depends_on;
    for (const dep of Array.isArray(deps) ? deps : Object.keys(deps ?? {}))
      if (!services[dep]) problems.push(`${where}: service ${name}: depends on "${dep}", which is not a service`);
  }
  return problems;
}

export function checkCompose(root) {
  const file = path.join(root, "compose.yaml");
  if (!existsSync(file)) return ["compose.yaml: missing"];
  const text = readFileSync(file, "utf8");
  let doc;
  try {
    doc = parse(text);
  } catch (err) {
    return [`compose.yaml: not valid YAML: ${err.message}`];
  }
  const problems = checkServices(doc, "compose.yaml", root);
  const { postgres, balcao } = doc?.services ?? {};
  if (!postgres) problems.push("compose.yaml: no postgres service");
  else if (!postgres.healthcheck?.test) problems.push("compose.yaml: the postgres service has no healthcheck (balcao waits for it)");
  if (!balcao) problems.push("compose.yaml: no balcao service");
  else {
    if (balcao.build === undefined) problems.push("compose.yaml: the balcao service is not built from this Dockerfile");
    if (balcao.depends_on?.postgres?.condition !== "service_healthy") problems.push("compose.yaml: balcao does not wait for postgres to be healthy");
    const env = balcao.environment ?? {};
    if (!/@postgres:5432\//.test(String(env.DATABASE_URL ?? "")))
      problems.push("compose.yaml: balcao's DATABASE_URL does not point at the postgres service");
    for (const key of ["JWT_SECRET", "JWT_REFRESH_SECRET"])
      if (!/^\$\{\w+:\?/.test(String(env[key] ?? ""))) problems.push(`compose.yaml: balcao's ${key} is not required (\${${key}:?…})`);
    if (!(balcao.volumes ?? []).some((v) => String(v).endsWith(":/data"))) problems.push("compose.yaml: balcao keeps no volume on /data");
  }
  // The documented option: the commented deploy and proxy blocks, uncommented, are still a valid file.
  const option = text.replace(/^([ \t]+)# ([ \t]*)((?:[a-z_]+:(?: .*)?)|(?:- .*))$/gm, "$1$2$3");
  try {
    const replicas = parse(option);
    problems.push(...checkServices(replicas, "compose.yaml (replicas option uncommented)", root));
    if (!replicas?.services?.proxy) problems.push("compose.yaml: the commented replicas option has no proxy service");
    if (!(replicas?.services?.balcao?.deploy?.replicas >= 2))
      problems.push("compose.yaml: the commented replicas option does not set deploy.replicas");
  } catch (err) {
    problems.push(`compose.yaml: the commented replicas option is not valid YAML once uncommented: ${err.message}`);
  }
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), ".."));
  const problems = [...checkDockerfile(root), ...checkCompose(root)];
  for (const p of problems) console.error(`container-check: ${p}`);
  if (problems.length > 0) process.exit(1);
  console.log(
    "container-check: OK — Dockerfile (stages build, deps, runtime; USER, HEALTHCHECK, VOLUME, EXPOSE, CMD) and compose.yaml (with the replicas option) pass the static checks; nothing was built",
  );
}
