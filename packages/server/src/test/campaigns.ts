/** Fixtures for the campaign tests: contact lists written straight to their tables, the simulated phones' inboxes. */
import type { SimulatorProvider } from "../channels/simulator/provider";
import type { AppContext } from "../context";
import { contactListItems, contactLists } from "../db/schema";

let seq = 0;

export interface SeededList {
  id: number;
  name: string;
  /** In list order (id); the `invalid` ones (known to be off WhatsApp) last. */
  items: { id: number; name: string; number: string; email: string }[];
}

/** A contact list with `count` items (plus `invalid` items marked off WhatsApp), unique simulator-valid numbers. */
export async function seedList(ctx: AppContext, companyId: number, count: number, options: { invalid?: number } = {}): Promise<SeededList> {
  const tag = `${process.pid % 1000}${Date.now() % 100000}${++seq}`.slice(-7).padStart(7, "0");
  const [list] = await ctx.database.db
    .insert(contactLists)
    .values({ companyId, name: `Lista ${tag}` })
    .returning();
  const items: SeededList["items"] = [];
  const total = count + (options.invalid ?? 0);
  for (let i = 0; i < total; i++) {
    const [item] = await ctx.database.db
      .insert(contactListItems)
      .values({
        companyId,
        contactListId: list!.id,
        name: `Cliente ${tag}-${i + 1}`,
        number: `55119${tag}${String(i + 1).padStart(2, "0")}`,
        email: `cliente${i + 1}.${tag}@example.com`,
        isWhatsappValid: i < count ? null : false,
      })
      .returning();
    items.push({ id: item!.id, name: item!.name, number: item!.number, email: item!.email });
  }
  return { id: list!.id, name: list!.name, items };
}

/** What a simulated phone received from the company, in the process whose provider ran the session. */
export function phoneInbox(ctx: AppContext, connectionId: number, number: string): string[] {
  const provider = ctx.channels.provider<SimulatorProvider>("simulator")!;
  return (provider.phoneBook(connectionId).phones.get(number)?.messages ?? []).filter((m) => m.direction === "in").map((m) => m.body);
}
