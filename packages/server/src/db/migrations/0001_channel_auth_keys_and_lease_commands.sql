CREATE TABLE "connection_auth_keys" (
	"connection_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"type" varchar(40) NOT NULL,
	"key_id" varchar(300) NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "connection_auth_keys_connection_id_type_key_id_pk" PRIMARY KEY("connection_id","type","key_id")
);
--> statement-breakpoint
ALTER TABLE "connection_leases" ADD COLUMN "command" varchar(20);--> statement-breakpoint
ALTER TABLE "connection_auth_keys" ADD CONSTRAINT "connection_auth_keys_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connection_auth_keys" ADD CONSTRAINT "connection_auth_keys_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;