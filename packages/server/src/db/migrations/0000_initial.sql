CREATE TABLE "companies" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(100) NOT NULL,
	"email" varchar(254) DEFAULT '' NOT NULL,
	"phone" varchar(30) DEFAULT '' NOT NULL,
	"plan_id" integer,
	"status" boolean DEFAULT true NOT NULL,
	"campaigns_enabled" boolean DEFAULT true NOT NULL,
	"due_date" date,
	"recurrence" varchar(12) DEFAULT 'MENSAL' NOT NULL,
	"time_zone" varchar(64) DEFAULT 'America/Sao_Paulo' NOT NULL,
	"billing_name" varchar(200),
	"address_zip_code" varchar(20),
	"address_street" varchar(200),
	"address_state" varchar(50),
	"address_city" varchar(100),
	"address_district" varchar(100),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "helps" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" varchar(200) NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"video" varchar(100) DEFAULT '' NOT NULL,
	"link" varchar(500),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(100) NOT NULL,
	"users" integer DEFAULT 0 NOT NULL,
	"connections" integer DEFAULT 0 NOT NULL,
	"queues" integer DEFAULT 0 NOT NULL,
	"value" numeric(10, 2) DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "queues" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" varchar(50) NOT NULL,
	"color" varchar(9) NOT NULL,
	"greeting_message" text DEFAULT '' NOT NULL,
	"complation_message" text DEFAULT '' NOT NULL,
	"out_of_hours_message" text DEFAULT '' NOT NULL,
	"rating_message" text DEFAULT '' NOT NULL,
	"schedules" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"order_queue" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refresh_sessions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"previous_token_hash" text,
	"user_agent" varchar(300) DEFAULT '' NOT NULL,
	"ip" varchar(64) DEFAULT '' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"key" varchar(64) NOT NULL,
	"value" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_queues" (
	"company_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"queue_id" integer NOT NULL,
	CONSTRAINT "user_queues_user_id_queue_id_pk" PRIMARY KEY("user_id","queue_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" varchar(50) NOT NULL,
	"email" varchar(254) NOT NULL,
	"password_hash" text NOT NULL,
	"profile" varchar(10) DEFAULT 'user' NOT NULL,
	"super" boolean DEFAULT false NOT NULL,
	"all_ticket" varchar(10) DEFAULT 'disable' NOT NULL,
	"online" boolean DEFAULT false NOT NULL,
	"last_seen_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "company_schedules" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"weekday" varchar(20) NOT NULL,
	"weekday_en" varchar(10) NOT NULL,
	"start_time" varchar(5) NOT NULL,
	"end_time" varchar(5) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "connection_auth" (
	"connection_id" integer PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"creds" jsonb,
	"keys" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "connection_leases" (
	"connection_id" integer PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"owner_id" varchar(100) NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "connection_queues" (
	"company_id" integer NOT NULL,
	"connection_id" integer NOT NULL,
	"queue_id" integer NOT NULL,
	CONSTRAINT "connection_queues_connection_id_queue_id_pk" PRIMARY KEY("connection_id","queue_id")
);
--> statement-breakpoint
CREATE TABLE "connections" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" varchar(50) NOT NULL,
	"status" varchar(20) DEFAULT 'DISCONNECTED' NOT NULL,
	"qrcode" text DEFAULT '' NOT NULL,
	"retries" integer DEFAULT 0 NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"greeting_message" text DEFAULT '' NOT NULL,
	"complation_message" text DEFAULT '' NOT NULL,
	"out_of_hours_message" text DEFAULT '' NOT NULL,
	"rating_message" text DEFAULT '' NOT NULL,
	"farewell_message" text DEFAULT '' NOT NULL,
	"token" varchar(128),
	"provider" varchar(20) DEFAULT 'beta' NOT NULL,
	"channel" varchar(20) DEFAULT 'simulator' NOT NULL,
	"time_send_queue" integer DEFAULT 0 NOT NULL,
	"send_id_queue" integer DEFAULT 0 NOT NULL,
	"number" varchar(30),
	"provider_account_id" varchar(64),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "queue_options" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"queue_id" integer NOT NULL,
	"parent_id" integer,
	"title" varchar(100) NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"option" varchar(10) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_extra_info" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"contact_id" integer NOT NULL,
	"name" varchar(100) NOT NULL,
	"value" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_identities" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"contact_id" integer NOT NULL,
	"kind" varchar(16) NOT NULL,
	"value" varchar(128) NOT NULL,
	"connection_id" integer,
	"source" varchar(30) DEFAULT '' NOT NULL,
	"verified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contacts" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" varchar(100) NOT NULL,
	"number" varchar(50),
	"email" varchar(254) DEFAULT '' NOT NULL,
	"profile_pic_url" text DEFAULT '' NOT NULL,
	"is_group" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "attendance_cycles" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"ticket_id" integer NOT NULL,
	"connection_id" integer,
	"user_id" integer,
	"queue_id" integer,
	"queued_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"rating_at" timestamp with time zone,
	"chatbot_at" timestamp with time zone,
	"rated" boolean DEFAULT false NOT NULL,
	"rating" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "attendance_cycles_rating_ck" CHECK ("attendance_cycles"."rating" between 1 and 3)
);
--> statement-breakpoint
CREATE TABLE "ticket_notes" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"note" text NOT NULL,
	"ticket_id" integer NOT NULL,
	"contact_id" integer NOT NULL,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tickets" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"status" varchar(10) DEFAULT 'pending' NOT NULL,
	"user_id" integer,
	"queue_id" integer,
	"connection_id" integer,
	"contact_id" integer NOT NULL,
	"is_group" boolean DEFAULT false NOT NULL,
	"chatbot" boolean DEFAULT false NOT NULL,
	"queue_option_id" integer,
	"code" varchar(50),
	"last_message" text DEFAULT '' NOT NULL,
	"unread_messages" integer DEFAULT 0 NOT NULL,
	"last_message_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" varchar(50) NOT NULL,
	"color" varchar(9) NOT NULL,
	"kanban" integer DEFAULT 0 NOT NULL,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticket_tags" (
	"company_id" integer NOT NULL,
	"ticket_id" integer NOT NULL,
	"tag_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ticket_tags_ticket_id_tag_id_pk" PRIMARY KEY("ticket_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"ticket_id" integer NOT NULL,
	"contact_id" integer,
	"connection_id" integer,
	"provider_message_id" varchar(128),
	"idempotency_key" varchar(100),
	"remote_jid" varchar(100),
	"participant" varchar(100),
	"body" text DEFAULT '' NOT NULL,
	"from_me" boolean DEFAULT false NOT NULL,
	"media_type" varchar(30) DEFAULT 'chat' NOT NULL,
	"media_url" varchar(500),
	"media_path" varchar(500),
	"media_name" varchar(255),
	"mime_type" varchar(100),
	"quoted_msg_id" integer,
	"read" boolean DEFAULT false NOT NULL,
	"ack" integer DEFAULT 0 NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"is_edited" boolean DEFAULT false NOT NULL,
	"status" varchar(10) DEFAULT 'sent' NOT NULL,
	"data_json" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quick_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"shortcode" varchar(50) NOT NULL,
	"message" text NOT NULL,
	"user_id" integer,
	"media_path" varchar(500),
	"media_name" varchar(255),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scheduled_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"body" text NOT NULL,
	"send_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	"status" varchar(20) DEFAULT 'PENDENTE' NOT NULL,
	"contact_id" integer NOT NULL,
	"ticket_id" integer,
	"user_id" integer,
	"connection_id" integer,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_list_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"contact_list_id" integer NOT NULL,
	"name" varchar(100) NOT NULL,
	"number" varchar(50) NOT NULL,
	"email" varchar(254) DEFAULT '' NOT NULL,
	"is_whatsapp_valid" boolean,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_lists" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" varchar(100) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_settings" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"key" varchar(64) NOT NULL,
	"value" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_shippings" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"campaign_id" integer NOT NULL,
	"contact_list_item_id" integer,
	"number" varchar(50) NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"confirmation_message" text DEFAULT '' NOT NULL,
	"confirmation" boolean,
	"confirmation_requested_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"status" varchar(20) DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"locked_until" timestamp with time zone,
	"idempotency_key" varchar(100) NOT NULL,
	"provider_message_id" varchar(128),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" varchar(100) NOT NULL,
	"message1" text DEFAULT '' NOT NULL,
	"message2" text DEFAULT '' NOT NULL,
	"message3" text DEFAULT '' NOT NULL,
	"message4" text DEFAULT '' NOT NULL,
	"message5" text DEFAULT '' NOT NULL,
	"confirmation_message1" text DEFAULT '' NOT NULL,
	"confirmation_message2" text DEFAULT '' NOT NULL,
	"confirmation_message3" text DEFAULT '' NOT NULL,
	"confirmation_message4" text DEFAULT '' NOT NULL,
	"confirmation_message5" text DEFAULT '' NOT NULL,
	"status" varchar(20) DEFAULT 'INATIVA' NOT NULL,
	"confirmation" boolean DEFAULT false NOT NULL,
	"scheduled_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"connection_id" integer,
	"contact_list_id" integer,
	"media_path" varchar(500),
	"media_name" varchar(255),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "announcements" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"title" varchar(200) NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"priority" integer DEFAULT 3 NOT NULL,
	"media_path" varchar(500),
	"media_name" varchar(255),
	"status" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "announcements_priority_ck" CHECK ("announcements"."priority" between 1 and 3)
);
--> statement-breakpoint
CREATE TABLE "chat_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"chat_id" integer NOT NULL,
	"sender_id" integer,
	"message" text DEFAULT '' NOT NULL,
	"media_path" varchar(500),
	"media_name" varchar(255),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_users" (
	"company_id" integer NOT NULL,
	"chat_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"unreads" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_users_chat_id_user_id_pk" PRIMARY KEY("chat_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "chats" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"title" varchar(200) DEFAULT '' NOT NULL,
	"owner_id" integer,
	"last_message" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"detail" varchar(200) DEFAULT '' NOT NULL,
	"value" numeric(10, 2) NOT NULL,
	"due_date" date NOT NULL,
	"status" varchar(10) DEFAULT 'open' NOT NULL,
	"paid_at" timestamp with time zone,
	"pix_txid" varchar(64),
	"plan_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "media_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" integer NOT NULL,
	"storage_key" varchar(300) NOT NULL,
	"original_name" varchar(255) DEFAULT '' NOT NULL,
	"mime_type" varchar(100) NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queues" ADD CONSTRAINT "queues_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_sessions" ADD CONSTRAINT "refresh_sessions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_sessions" ADD CONSTRAINT "refresh_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settings" ADD CONSTRAINT "settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_queues" ADD CONSTRAINT "user_queues_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_queues" ADD CONSTRAINT "user_queues_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_queues" ADD CONSTRAINT "user_queues_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_schedules" ADD CONSTRAINT "company_schedules_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connection_auth" ADD CONSTRAINT "connection_auth_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connection_auth" ADD CONSTRAINT "connection_auth_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connection_leases" ADD CONSTRAINT "connection_leases_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connection_leases" ADD CONSTRAINT "connection_leases_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connection_queues" ADD CONSTRAINT "connection_queues_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connection_queues" ADD CONSTRAINT "connection_queues_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connection_queues" ADD CONSTRAINT "connection_queues_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connections" ADD CONSTRAINT "connections_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_options" ADD CONSTRAINT "queue_options_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_options" ADD CONSTRAINT "queue_options_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_options" ADD CONSTRAINT "queue_options_parent_id_queue_options_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."queue_options"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_extra_info" ADD CONSTRAINT "contact_extra_info_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_extra_info" ADD CONSTRAINT "contact_extra_info_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_identities" ADD CONSTRAINT "contact_identities_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_identities" ADD CONSTRAINT "contact_identities_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_identities" ADD CONSTRAINT "contact_identities_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_cycles" ADD CONSTRAINT "attendance_cycles_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_cycles" ADD CONSTRAINT "attendance_cycles_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_cycles" ADD CONSTRAINT "attendance_cycles_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_cycles" ADD CONSTRAINT "attendance_cycles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_cycles" ADD CONSTRAINT "attendance_cycles_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_notes" ADD CONSTRAINT "ticket_notes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_notes" ADD CONSTRAINT "ticket_notes_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_notes" ADD CONSTRAINT "ticket_notes_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_notes" ADD CONSTRAINT "ticket_notes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_queue_option_id_queue_options_id_fk" FOREIGN KEY ("queue_option_id") REFERENCES "public"."queue_options"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_tags" ADD CONSTRAINT "ticket_tags_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_tags" ADD CONSTRAINT "ticket_tags_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_tags" ADD CONSTRAINT "ticket_tags_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_quoted_msg_id_messages_id_fk" FOREIGN KEY ("quoted_msg_id") REFERENCES "public"."messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quick_messages" ADD CONSTRAINT "quick_messages_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quick_messages" ADD CONSTRAINT "quick_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_messages" ADD CONSTRAINT "scheduled_messages_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_messages" ADD CONSTRAINT "scheduled_messages_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_messages" ADD CONSTRAINT "scheduled_messages_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_messages" ADD CONSTRAINT "scheduled_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_messages" ADD CONSTRAINT "scheduled_messages_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_list_items" ADD CONSTRAINT "contact_list_items_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_list_items" ADD CONSTRAINT "contact_list_items_contact_list_id_contact_lists_id_fk" FOREIGN KEY ("contact_list_id") REFERENCES "public"."contact_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_lists" ADD CONSTRAINT "contact_lists_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_settings" ADD CONSTRAINT "campaign_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_shippings" ADD CONSTRAINT "campaign_shippings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_shippings" ADD CONSTRAINT "campaign_shippings_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_shippings" ADD CONSTRAINT "campaign_shippings_contact_list_item_id_contact_list_items_id_fk" FOREIGN KEY ("contact_list_item_id") REFERENCES "public"."contact_list_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_contact_list_id_contact_lists_id_fk" FOREIGN KEY ("contact_list_id") REFERENCES "public"."contact_lists"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcements" ADD CONSTRAINT "announcements_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_users" ADD CONSTRAINT "chat_users_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_users" ADD CONSTRAINT "chat_users_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_users" ADD CONSTRAINT "chat_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chats" ADD CONSTRAINT "chats_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chats" ADD CONSTRAINT "chats_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_files" ADD CONSTRAINT "media_files_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "companies_name_uq" ON "companies" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "companies_due_date_idx" ON "companies" USING btree ("due_date");--> statement-breakpoint
CREATE UNIQUE INDEX "plans_name_uq" ON "plans" USING btree ("name");--> statement-breakpoint
CREATE UNIQUE INDEX "queues_company_name_uq" ON "queues" USING btree ("company_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "queues_company_color_uq" ON "queues" USING btree ("company_id","color");--> statement-breakpoint
CREATE INDEX "refresh_sessions_company_user_idx" ON "refresh_sessions" USING btree ("company_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "settings_company_key_uq" ON "settings" USING btree ("company_id","key");--> statement-breakpoint
CREATE INDEX "user_queues_company_queue_idx" ON "user_queues" USING btree ("company_id","queue_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_uq" ON "users" USING btree ("email");--> statement-breakpoint
CREATE INDEX "users_company_name_idx" ON "users" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE UNIQUE INDEX "company_schedules_company_weekday_uq" ON "company_schedules" USING btree ("company_id","weekday_en");--> statement-breakpoint
CREATE INDEX "connection_queues_company_queue_idx" ON "connection_queues" USING btree ("company_id","queue_id");--> statement-breakpoint
CREATE UNIQUE INDEX "connections_company_name_uq" ON "connections" USING btree ("company_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "connections_token_uq" ON "connections" USING btree ("token");--> statement-breakpoint
CREATE UNIQUE INDEX "connections_company_default_uq" ON "connections" USING btree ("company_id") WHERE "connections"."is_default";--> statement-breakpoint
CREATE UNIQUE INDEX "connections_channel_account_uq" ON "connections" USING btree ("channel","provider_account_id");--> statement-breakpoint
CREATE INDEX "queue_options_company_queue_parent_idx" ON "queue_options" USING btree ("company_id","queue_id","parent_id","option");--> statement-breakpoint
CREATE INDEX "queue_options_parent_idx" ON "queue_options" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "contact_extra_info_company_contact_idx" ON "contact_extra_info" USING btree ("company_id","contact_id");--> statement-breakpoint
CREATE UNIQUE INDEX "contact_identities_company_kind_value_uq" ON "contact_identities" USING btree ("company_id","kind","value");--> statement-breakpoint
CREATE INDEX "contact_identities_company_contact_idx" ON "contact_identities" USING btree ("company_id","contact_id");--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_company_number_uq" ON "contacts" USING btree ("company_id","number") WHERE "contacts"."number" is not null;--> statement-breakpoint
CREATE INDEX "contacts_company_name_idx" ON "contacts" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE INDEX "attendance_cycles_company_finished_idx" ON "attendance_cycles" USING btree ("company_id","finished_at");--> statement-breakpoint
CREATE INDEX "attendance_cycles_company_ticket_idx" ON "attendance_cycles" USING btree ("company_id","ticket_id");--> statement-breakpoint
CREATE UNIQUE INDEX "attendance_cycles_company_ticket_open_uq" ON "attendance_cycles" USING btree ("company_id","ticket_id") WHERE "attendance_cycles"."finished_at" is null;--> statement-breakpoint
CREATE INDEX "ticket_notes_company_ticket_created_idx" ON "ticket_notes" USING btree ("company_id","ticket_id","created_at","id");--> statement-breakpoint
CREATE INDEX "ticket_notes_company_contact_created_idx" ON "ticket_notes" USING btree ("company_id","contact_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "tickets_uuid_uq" ON "tickets" USING btree ("uuid");--> statement-breakpoint
CREATE INDEX "tickets_company_status_updated_idx" ON "tickets" USING btree ("company_id","status","updated_at","id");--> statement-breakpoint
CREATE INDEX "tickets_company_queue_status_updated_idx" ON "tickets" USING btree ("company_id","queue_id","status","updated_at","id");--> statement-breakpoint
CREATE INDEX "tickets_company_user_status_updated_idx" ON "tickets" USING btree ("company_id","user_id","status","updated_at","id");--> statement-breakpoint
CREATE INDEX "tickets_company_contact_connection_status_idx" ON "tickets" USING btree ("company_id","contact_id","connection_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "tickets_company_contact_connection_active_uq" ON "tickets" USING btree ("company_id","contact_id","connection_id") WHERE "tickets"."status" <> 'closed';--> statement-breakpoint
CREATE INDEX "tags_company_name_idx" ON "tags" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE INDEX "ticket_tags_company_tag_idx" ON "ticket_tags" USING btree ("company_id","tag_id");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_company_connection_provider_id_uq" ON "messages" USING btree ("company_id","connection_id","provider_message_id");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_company_idempotency_key_uq" ON "messages" USING btree ("company_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "messages_company_ticket_created_idx" ON "messages" USING btree ("company_id","ticket_id","created_at","id");--> statement-breakpoint
CREATE INDEX "messages_company_contact_created_idx" ON "messages" USING btree ("company_id","contact_id","created_at","id");--> statement-breakpoint
CREATE INDEX "messages_quoted_msg_idx" ON "messages" USING btree ("quoted_msg_id") WHERE "messages"."quoted_msg_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "quick_messages_company_shortcode_uq" ON "quick_messages" USING btree ("company_id","shortcode");--> statement-breakpoint
CREATE INDEX "scheduled_messages_status_send_at_idx" ON "scheduled_messages" USING btree ("status","send_at");--> statement-breakpoint
CREATE INDEX "scheduled_messages_company_created_idx" ON "scheduled_messages" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "scheduled_messages_company_contact_idx" ON "scheduled_messages" USING btree ("company_id","contact_id");--> statement-breakpoint
CREATE INDEX "contact_list_items_company_list_name_idx" ON "contact_list_items" USING btree ("company_id","contact_list_id","name","id");--> statement-breakpoint
CREATE INDEX "contact_list_items_company_list_number_idx" ON "contact_list_items" USING btree ("company_id","contact_list_id","number");--> statement-breakpoint
CREATE INDEX "contact_lists_company_name_idx" ON "contact_lists" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_settings_company_key_uq" ON "campaign_settings" USING btree ("company_id","key");--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_shippings_company_idempotency_key_uq" ON "campaign_shippings" USING btree ("company_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "campaign_shippings_company_campaign_status_idx" ON "campaign_shippings" USING btree ("company_id","campaign_id","status","id");--> statement-breakpoint
CREATE INDEX "campaign_shippings_item_idx" ON "campaign_shippings" USING btree ("contact_list_item_id") WHERE "campaign_shippings"."contact_list_item_id" is not null;--> statement-breakpoint
CREATE INDEX "campaigns_status_scheduled_idx" ON "campaigns" USING btree ("status","scheduled_at");--> statement-breakpoint
CREATE INDEX "campaigns_company_created_idx" ON "campaigns" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "announcements_status_priority_created_idx" ON "announcements" USING btree ("status","priority","created_at");--> statement-breakpoint
CREATE INDEX "chat_messages_company_chat_created_idx" ON "chat_messages" USING btree ("company_id","chat_id","created_at","id");--> statement-breakpoint
CREATE INDEX "chat_users_company_user_idx" ON "chat_users" USING btree ("company_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "chats_uuid_uq" ON "chats" USING btree ("uuid");--> statement-breakpoint
CREATE INDEX "chats_company_updated_idx" ON "chats" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_pix_txid_uq" ON "invoices" USING btree ("pix_txid");--> statement-breakpoint
CREATE INDEX "invoices_company_due_idx" ON "invoices" USING btree ("company_id","due_date","id");--> statement-breakpoint
CREATE INDEX "invoices_status_due_idx" ON "invoices" USING btree ("status","due_date");--> statement-breakpoint
CREATE UNIQUE INDEX "media_files_storage_key_uq" ON "media_files" USING btree ("storage_key");--> statement-breakpoint
CREATE INDEX "media_files_company_created_idx" ON "media_files" USING btree ("company_id","created_at");