-- Issue 12 (platform administration): per-user read marks of announcements, list indexes, plan names unique ignoring case.
CREATE TABLE "announcement_reads" (
	"company_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"announcement_id" integer NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "announcement_reads_pk" PRIMARY KEY("company_id","user_id","announcement_id")
);--> statement-breakpoint
ALTER TABLE "announcement_reads" ADD CONSTRAINT "announcement_reads_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcement_reads" ADD CONSTRAINT "announcement_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcement_reads" ADD CONSTRAINT "announcement_reads_announcement_id_announcements_id_fk" FOREIGN KEY ("announcement_id") REFERENCES "public"."announcements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "announcement_reads_announcement_idx" ON "announcement_reads" USING btree ("announcement_id");--> statement-breakpoint
CREATE INDEX "announcements_status_created_idx" ON "announcements" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "announcements_created_idx" ON "announcements" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "companies_plan_idx" ON "companies" USING btree ("plan_id");--> statement-breakpoint
DROP INDEX "plans_name_uq";--> statement-breakpoint
CREATE UNIQUE INDEX "plans_name_uq" ON "plans" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "users_super_idx" ON "users" USING btree ("id") WHERE "users"."super";--> statement-breakpoint
-- userCreation was stored but ignored until now, so sign-up was open: keep it open where the platform company had the default.
UPDATE "settings" SET "value" = 'enabled', "updated_at" = now() WHERE "key" = 'userCreation' AND "company_id" IN (SELECT "company_id" FROM "users" WHERE "super");
