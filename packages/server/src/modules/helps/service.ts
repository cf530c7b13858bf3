import { asc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { PAGE_SIZE, helpCreateBody, helpUpdateBody, type HelpDTO, type HelpListResponse, type ListQuery } from "@balcao/shared";
import type { AppContext } from "../../context";
import { helps } from "../../db/schema";
import { containsPattern, foldColumn } from "../../db/search";
import { requireSuper } from "../../http/auth";
import { notFound } from "../../http/errors";
import type { Actor } from "../auth/service";

type HelpRow = typeof helps.$inferSelect;
type CreateInput = z.output<typeof helpCreateBody>;
type UpdateInput = z.output<typeof helpUpdateBody>;

export function presentHelp(h: HelpRow): HelpDTO {
  return {
    id: h.id,
    title: h.title,
    description: h.description,
    video: h.video,
    createdAt: h.createdAt.toISOString(),
    updatedAt: h.updatedAt.toISOString(),
  };
}

/** Platform-wide help videos: every signed-in user reads them (the help page), only super users write. */
export class HelpsService {
  constructor(private readonly ctx: AppContext) {}

  private get db() {
    return this.ctx.database.db;
  }

  /** GET /helps: 20 per page by title; search on title or description. */
  async list(query: ListQuery): Promise<HelpListResponse> {
    const pattern = query.searchParam ? containsPattern(query.searchParam) : undefined;
    const rows = await this.db
      .select()
      .from(helps)
      .where(pattern ? sql`(${foldColumn(helps.title)} like ${pattern} or ${foldColumn(helps.description)} like ${pattern})` : undefined)
      .orderBy(asc(helps.title), asc(helps.id))
      .limit(PAGE_SIZE + 1)
      .offset((query.pageNumber - 1) * PAGE_SIZE);
    return { records: rows.slice(0, PAGE_SIZE).map(presentHelp), hasMore: rows.length > PAGE_SIZE };
  }

  /** GET /helps/list: every help, by title (the help page's accordion). */
  async listAll(): Promise<HelpDTO[]> {
    const rows = await this.db.select().from(helps).orderBy(asc(helps.title), asc(helps.id)).limit(1000);
    return rows.map(presentHelp);
  }

  async show(id: number): Promise<HelpDTO> {
    const [row] = await this.db.select().from(helps).where(eq(helps.id, id)).limit(1);
    if (!row) throw notFound("ERR_NO_HELP_FOUND");
    return presentHelp(row);
  }

  async create(actor: Actor, input: CreateInput): Promise<HelpDTO> {
    requireSuper(actor);
    const [row] = await this.db.insert(helps).values(input).returning();
    return presentHelp(row!);
  }

  async update(actor: Actor, id: number, input: UpdateInput): Promise<HelpDTO> {
    requireSuper(actor);
    const [row] = await this.db
      .update(helps)
      .set({ ...input, updatedAt: new Date() })
      .where(eq(helps.id, id))
      .returning();
    if (!row) throw notFound("ERR_NO_HELP_FOUND");
    return presentHelp(row);
  }

  async remove(actor: Actor, id: number): Promise<void> {
    requireSuper(actor);
    const deleted = await this.db.delete(helps).where(eq(helps.id, id)).returning({ id: helps.id });
    if (deleted.length === 0) throw notFound("ERR_NO_HELP_FOUND");
  }
}
