import { createHash } from "node:crypto";
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MIGRATIONS_FOLDER } from "./client";
import { journalEntries } from "./schemaVersion";

/**
 * Issue 23 (upgrades): migrations are forward-only. A released migration is never edited (its SHA-256 — the
 * hash drizzle records when it applies it — is pinned in db/released-migrations.json), a new one is added with
 * its hash, the journal stays in order, and statements that destroy data are allowed only with a documented
 * reason. db/upgrade.test.ts applies them all to a database holding data.
 */

const MANIFEST = path.join(path.dirname(MIGRATIONS_FOLDER), "released-migrations.json");

interface Manifest {
  migrations: Record<string, string>;
  destructive: Record<string, string>;
}

/** Statements that lose data already stored (indexes, functions and triggers hold none). */
const DESTRUCTIVE = [
  /\bDROP\s+TABLE\b/i,
  /\bDROP\s+COLUMN\b/i,
  /\bALTER\s+COLUMN\s+\S+\s+(SET\s+DATA\s+)?TYPE\b/i,
  /\bRENAME\b/i,
  /\bTRUNCATE\b/i,
  /\bDELETE\s+FROM\b/i,
];

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** What is wrong with a migrations folder against a manifest ([] when nothing). */
function migrationProblems(folder: string, manifest: Manifest): string[] {
  const problems: string[] = [];
  const entries = journalEntries(folder);
  const files = readdirSync(folder).filter((f) => f.endsWith(".sql"));
  entries.forEach((entry, i) => {
    if (entry.idx !== i) problems.push(`journal entry ${entry.tag}: idx ${entry.idx}, expected ${i} (entries are never removed or reordered)`);
    if (!entry.tag.startsWith(`${String(i).padStart(4, "0")}_`))
      problems.push(`journal entry ${entry.tag}: its number should be ${String(i).padStart(4, "0")}`);
    const previous = entries[i - 1];
    if (previous && entry.when <= previous.when)
      problems.push(
        `journal entry ${entry.tag}: "when" ${entry.when} is not after ${previous.tag}'s (drizzle would skip it on databases that have ${previous.tag})`,
      );
    if (!files.includes(`${entry.tag}.sql`)) {
      problems.push(`journal entry ${entry.tag}: ${entry.tag}.sql is missing`);
      return;
    }
    const text = readFileSync(path.join(folder, `${entry.tag}.sql`), "utf8");
    const pinned = manifest.migrations[entry.tag];
    const hash = sha256(text);
    if (!pinned) problems.push(`new migration ${entry.tag}: add  "${entry.tag}": "${hash}"  to db/released-migrations.json (migrations)`);
    else if (pinned !== hash)
      problems.push(
        `${entry.tag}.sql was edited after its release (sha256 ${hash}, released ${pinned}): revert it and put the change in a new migration`,
      );
    const code = text.replace(/--[^\n]*/g, "");
    const found = DESTRUCTIVE.filter((re) => re.test(code)).map((re) => re.exec(code)![0]);
    if (found.length > 0 && !manifest.destructive[entry.tag])
      problems.push(
        `${entry.tag}.sql destroys data (${found.join(", ")}): make it additive, or say why it is safe under "destructive" in db/released-migrations.json`,
      );
  });
  for (const file of files)
    if (!entries.some((e) => `${e.tag}.sql` === file)) problems.push(`${file} is not in meta/_journal.json: drizzle would never apply it`);
  return problems;
}

const manifest = JSON.parse(readFileSync(MANIFEST, "utf8")) as Manifest;

describe("migrations are forward-only", () => {
  it("every migration of this build matches its released hash, the journal is in order, data is dropped only where documented", () => {
    expect(migrationProblems(MIGRATIONS_FOLDER, manifest)).toEqual([]);
  });

  it("the check catches an edited released migration, a new one without its hash, a destructive statement and an unjournaled file", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "balcao-migrations-"));
    try {
      cpSync(MIGRATIONS_FOLDER, dir, { recursive: true });
      const entries = journalEntries(dir);
      const first = entries[0]!.tag;
      appendFileSync(path.join(dir, `${first}.sql`), "\n-- an edit\n");
      const next = entries.length;
      const tag = `${String(next).padStart(4, "0")}_drop_things`;
      writeFileSync(path.join(dir, `${tag}.sql`), 'ALTER TABLE "contacts" DROP COLUMN "email";');
      writeFileSync(path.join(dir, "9999_stray.sql"), "SELECT 1;");
      const journal = JSON.parse(readFileSync(path.join(dir, "meta", "_journal.json"), "utf8")) as { entries: object[] };
      journal.entries.push({ idx: next, version: "7", when: entries[entries.length - 1]!.when + 1, tag, breakpoints: true });
      writeFileSync(path.join(dir, "meta", "_journal.json"), JSON.stringify(journal));

      const problems = migrationProblems(dir, manifest);
      expect(problems).toEqual([
        expect.stringMatching(new RegExp(`^${first}\\.sql was edited after its release`)),
        expect.stringMatching(new RegExp(`^new migration ${tag}: add  "${tag}": "[0-9a-f]{64}"`)),
        `${tag}.sql destroys data (DROP COLUMN): make it additive, or say why it is safe under "destructive" in db/released-migrations.json`,
        "9999_stray.sql is not in meta/_journal.json: drizzle would never apply it",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
