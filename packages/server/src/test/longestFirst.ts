import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The suite's longest files, longest first (seconds each in a clean-clone CI of 2026-11-28, on the embedded
 * PostgreSQL / the machine's). The first ones mostly wait — for a killed process's lease to expire, a job's next
 * poll, a server process booted through tsx — so they belong at the start, where that waiting overlaps the other
 * files' work; longest first is also what keeps a run's tail short. On a clean clone vitest has no durations yet
 * and starts the largest files first: the campaign crash file (100–112 s) then started 150 s into a 394 s run and
 * the fuzz and job runner files formed its tail. With this order, both server runs at once with no recorded
 * durations (`npm test -- server`, one run each way, 2026-11-28) took 334 / 362 s instead of 358 / 374 s. Later
 * runs on the same checkout use vitest's own recorded durations for the files not listed.
 */
const LONGEST = [
  "modules/campaigns/campaigns.crash.test.ts", // 101 / 112
  "test/reliability/shutdown.test.ts", // 41 / 49
  "modules/schedules/schedules.test.ts", // 38 / 39
  "test/security/fuzz.test.ts", // 33 / 21
  "modules/campaigns/campaigns.test.ts", // 30 / 30
  "modules/chatbot/chatbot.test.ts", // 29 / 30
  "channels/cloudapi/cloudapi.http.test.ts", // 28 / 27
  "channels/baileys/baileys.test.ts", // 21 / 21
  "test/contract/contract.test.ts", // 16 / 11
  "jobs/runner.test.ts", // 15 / 15
  "modules/messages/sendQueue.restart.test.ts", // 13
  "db/embedded.test.ts", // 13
  "modules/webhooks/webhooks.test.ts", // 12 / 11
];

const rank = (spec: TestSpecification): number => {
  const relative = path.relative(path.join(spec.project.config.root, "src"), spec.moduleId).split(path.sep).join("/");
  const index = LONGEST.indexOf(relative);
  return index === -1 ? LONGEST.length : index;
};

/** Starts the files listed above first, in that order; the rest in vitest's own order. */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rest = await super.sort(files);
    return [...rest].sort((a, b) => rank(a) - rank(b));
  }
}
