/** Runs every benchmark; each prints its figures and a baseline measured in the same run. */
import { messagesHistoryBench } from "./messages-history";
import { ticketsListBench } from "./tickets-list";
import { inboundBench } from "./inbound";

const benches: Record<string, () => Promise<void>> = {
  "messages-history": messagesHistoryBench,
  "tickets-list": ticketsListBench,
  "voice-note": async () => (await import("./voice-note")).voiceNoteBench(),
  inbound: inboundBench,
  dashboard: async () => (await import("./dashboard")).dashboardBench(),
  memory: async () => (await import("./memory")).memoryBench(),
  "contact-list-import": async () => (await import("./contact-list-import")).contactListImportBench(),
  "web-load": async () => (await import("./web-load")).webLoadBench(),
  "web-weight": async () => (await import("./web-weight")).webWeightBench(),
};

const only = process.argv.slice(2);
for (const [name, bench] of Object.entries(benches)) {
  if (only.length && !only.includes(name)) continue;
  console.log(`\n## ${name}`);
  await bench();
}
