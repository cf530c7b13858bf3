import type { App } from "../../app";
import type { AppContext } from "../../context";
import { InboundPipeline } from "./inbound";
import { registerMessageRoutes } from "./routes";
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
  // Replies a killed process left pending on the connections this process now runs: failed, with retry.
  const stopSweep = startStaleSendSweep(app.ctx);
  app.addHook("onClose", async () => stopSweep());
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
