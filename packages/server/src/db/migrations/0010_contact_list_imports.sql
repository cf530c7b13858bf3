-- Contact lists (issue 17). A number is in a list at most once: the import skips duplicates with
-- ON CONFLICT DO NOTHING on this unique index (it replaces the plain one; older duplicate rows are dropped).
DELETE FROM "contact_list_items" a USING "contact_list_items" b
  WHERE a."company_id" = b."company_id" AND a."contact_list_id" = b."contact_list_id" AND a."number" = b."number" AND a."id" > b."id";
--> statement-breakpoint
DROP INDEX IF EXISTS "contact_list_items_company_list_number_idx";
--> statement-breakpoint
CREATE UNIQUE INDEX "contact_list_items_company_list_number_uq" ON "contact_list_items" ("company_id", "contact_list_id", "number");
--> statement-breakpoint
-- Items still waiting for their WhatsApp check (the background check reads them in id order).
CREATE INDEX "contact_list_items_unchecked_idx" ON "contact_list_items" ("company_id", "contact_list_id", "id") WHERE "is_whatsapp_valid" IS NULL;
--> statement-breakpoint
-- One spreadsheet upload: the file itself (so any process's job can read it; emptied when done), its progress
-- (rows already written, so a retried job resumes after them) and its result (bad rows with line and reason).
CREATE TABLE "contact_list_imports" (
  "id" serial PRIMARY KEY,
  "company_id" integer NOT NULL REFERENCES "companies"("id") ON DELETE CASCADE,
  "contact_list_id" integer NOT NULL REFERENCES "contact_lists"("id") ON DELETE CASCADE,
  "user_id" integer REFERENCES "users"("id") ON DELETE SET NULL,
  "file_name" varchar(255) NOT NULL,
  "format" varchar(10) NOT NULL,
  "data" bytea,
  "status" varchar(20) NOT NULL DEFAULT 'queued',
  "total_rows" integer,
  "processed_rows" integer NOT NULL DEFAULT 0,
  "inserted" integer NOT NULL DEFAULT 0,
  "duplicates" integer NOT NULL DEFAULT 0,
  "invalid" integer NOT NULL DEFAULT 0,
  "errors" jsonb NOT NULL DEFAULT '[]'::jsonb,
  "error" varchar(100),
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now(),
  "finished_at" timestamptz
);
--> statement-breakpoint
CREATE INDEX "contact_list_imports_company_list_idx" ON "contact_list_imports" ("company_id", "contact_list_id", "id");
