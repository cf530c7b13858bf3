ALTER TABLE "attendance_cycles" ADD COLUMN "rating_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "attendance_cycles" ADD COLUMN "rating_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "attendance_cycles" ADD COLUMN "out_of_hours_sent_at" timestamp with time zone;