-- Dashboard and reports (issue 14): every indicator is an index range over attendance_cycles.
-- The contact's first attendance cycle marks a lead; set when the cycle is created, backfilled here.
ALTER TABLE "attendance_cycles" ADD COLUMN "first_of_contact" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "attendance_cycles" c SET "first_of_contact" = true
FROM (
  SELECT DISTINCT ON (t."company_id", t."contact_id") c2."id"
  FROM "attendance_cycles" c2 JOIN "tickets" t ON t."id" = c2."ticket_id"
  ORDER BY t."company_id", t."contact_id", c2."created_at", c2."id"
) f
WHERE c."id" = f."id";--> statement-breakpoint
-- Finished cycles: counts, support time, ratings per attendant and per queue, read from the index alone.
DROP INDEX IF EXISTS "attendance_cycles_company_finished_idx";--> statement-breakpoint
CREATE INDEX "attendance_cycles_company_finished_idx" ON "attendance_cycles" USING btree ("company_id","finished_at","started_at","user_id","queue_id","rating");--> statement-breakpoint
-- Started cycles: wait time and cycles in progress.
CREATE INDEX "attendance_cycles_company_started_idx" ON "attendance_cycles" USING btree ("company_id","started_at","queued_at","finished_at");--> statement-breakpoint
-- Cycles waiting for an attendant.
CREATE INDEX "attendance_cycles_company_waiting_idx" ON "attendance_cycles" USING btree ("company_id","queued_at") WHERE "attendance_cycles"."started_at" is null and "attendance_cycles"."finished_at" is null;--> statement-breakpoint
-- Cycles begun today, by hour.
CREATE INDEX "attendance_cycles_company_created_idx" ON "attendance_cycles" USING btree ("company_id","created_at");--> statement-breakpoint
-- Leads.
CREATE INDEX "attendance_cycles_company_first_contact_idx" ON "attendance_cycles" USING btree ("company_id","created_at") WHERE "attendance_cycles"."first_of_contact";
