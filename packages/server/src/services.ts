/**
 * Services more than one module uses, built once per app context and injected from here (never constructed
 * ad hoc inside another module): the messages service sends for attendants, the bot, automatic messages and
 * scheduled messages alike.
 */
import type { AppContext } from "./context";
import { MessagesService } from "./modules/messages/service";

export interface Services {
  readonly messages: MessagesService;
}

export function createServices(ctx: AppContext): Services {
  let messages: MessagesService | undefined;
  return {
    get messages() {
      return (messages ??= new MessagesService(ctx));
    },
  };
}
