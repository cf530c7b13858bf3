import type { App } from "../../app";
import type { AppContext } from "../../context";
import { InboundPipeline } from "./inbound";
import { registerMessageRoutes } from "./routes";
import { sessionRelayOf } from "./sessionRelay";
import { startGroupSubjects } from "./groupSubjects";
import { startSendQueue } from "./sendQueue";
import { startStaleSendSweep } from "./staleSends";

interface EventSource {
  onEvent(
    listener: (source: { companyId: number; connectionId: number }, event: import("../../channels/types").ChannelEvent) => Promise<void>,
  ): () => void;
}

/** Routes plus the inbound pipeline, subscribed to the channel manager when the app has one. */
export function registerMessages(app: App): void {
  const service = app.ctx.services.messages;
  registerMessageRoutes(app, service);
  // Serve sends that other processes relay for the connections this process runs.
  const stopRelay = service.relay.listen((companyId, messageId, voice) => service.deliverHere(companyId, messageId, voice));
  app.addHook("onClose", async () => stopRelay());
  // And number checks, address books and simulator calls they relay (sessionRelay.ts).
  const stopSessionRelay = sessionRelayOf(app.ctx).listen();
  app.addHook("onClose", async () => stopSessionRelay());
  // Replies a killed process left pending on the connections this process now runs: failed, with retry.
  const stopSweep = startStaleSendSweep(app.ctx);
  app.addHook("onClose", async () => stopSweep());
  // Replies sent while their connection is down wait for it (sendQueue.ts, setting sendWhileDisconnected).
  const stopSendQueue = startSendQueue(app.ctx, service);
  app.addHook("onClose", async () => stopSendQueue());
  // Group chats are named after their WhatsApp subject, renamed when it changes (groupSubjects.ts).
  const stopGroupSubjects = startGroupSubjects(app.ctx);
  app.addHook("onClose", async () => stopGroupSubjects());
  const pipeline = new InboundPipeline(app.ctx, service);
  const channels = (app.ctx as unknown as { channels?: EventSource }).channels;
  if (channels) {
    const unsubscribe = channels.onEvent((source, event) => pipeline.handle(source, event));
    app.addHook("onClose", async () => unsubscribe());
  }
  pipelines.set(app.ctx, pipeline);
}

/** The pipeline of each app context (tests and the simulator feed it directly). */
export const pipelines = new WeakMap<AppContext, InboundPipeline>();
