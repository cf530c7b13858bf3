-- Issue 13 (billing): one invoice per company and period, the recurrence an invoice was made for, Pix charges and payments.
ALTER TABLE "invoices" ADD COLUMN "recurrence" varchar(12) DEFAULT 'MENSAL' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_company_due_uq" ON "invoices" USING btree ("company_id","due_date");--> statement-breakpoint
CREATE TABLE "pix_charges" (
	"txid" varchar(35) PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"invoice_id" integer NOT NULL,
	"provider" varchar(20) NOT NULL,
	"amount" numeric(10, 2) NOT NULL,
	"status" varchar(40) DEFAULT 'ATIVA' NOT NULL,
	"br_code" text NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "pix_charges" ADD CONSTRAINT "pix_charges_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pix_charges" ADD CONSTRAINT "pix_charges_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pix_charges_company_invoice_idx" ON "pix_charges" USING btree ("company_id","invoice_id","created_at");--> statement-breakpoint
CREATE TABLE "invoice_payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"invoice_id" integer NOT NULL,
	"method" varchar(10) NOT NULL,
	"txid" varchar(35),
	"end_to_end_id" varchar(64),
	"amount" numeric(10, 2) NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	"confirmed_by_user_id" integer,
	"applied" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_confirmed_by_user_id_users_id_fk" FOREIGN KEY ("confirmed_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_payments_end_to_end_uq" ON "invoice_payments" USING btree ("end_to_end_id");--> statement-breakpoint
CREATE INDEX "invoice_payments_company_invoice_idx" ON "invoice_payments" USING btree ("company_id","invoice_id");
