import type { App } from "../../app";
import type { AppContext } from "../../context";
import { InboundPipeline } from "./inbound";
import { registerMessageRoutes } from "./routes";
import { MessagesService } from "./service";

interface EventSource {
  onEvent(listener: (source: { companyId: number; connectionId: number }, event: import("../../channels/types").ChannelEvent) => Promise<void>): () => void;
}

/** Routes plus the inbound pipeline, subscribed to the channel manager when the app has one. */
export function registerMessages(app: App): void {
  const service = new MessagesService(app.ctx);
  registerMessageRoutes(app, service);
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
