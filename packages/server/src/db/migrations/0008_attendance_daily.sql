-- Dashboard (issue 14): per-day sums of the attendance cycles, kept by triggers in the transaction that
-- changes a cycle, so any period of whole local days is a sum over (days × attendants) rows instead of a scan
-- of every cycle in it. A cycle contributes on the company-local day of each instant: finished_at (finished,
-- served, support time, ratings), started_at (started, waited, wait time) and created_at (a lead when it is
-- the contact's first cycle), under its attendant (0 = none). An update takes the old row's contribution off
-- and adds the new one's; a company's new time zone rebuilds its days.
CREATE TABLE "attendance_daily" (
	"company_id" integer NOT NULL REFERENCES "companies"("id") ON DELETE CASCADE,
	"day" date NOT NULL,
	"user_id" integer DEFAULT 0 NOT NULL,
	"finished" integer DEFAULT 0 NOT NULL,
	"served" integer DEFAULT 0 NOT NULL,
	"support_ms" bigint DEFAULT 0 NOT NULL,
	"ratings" integer DEFAULT 0 NOT NULL,
	"rating_sum" integer DEFAULT 0 NOT NULL,
	"started" integer DEFAULT 0 NOT NULL,
	"waited" integer DEFAULT 0 NOT NULL,
	"wait_ms" bigint DEFAULT 0 NOT NULL,
	"leads" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "attendance_daily_pk" PRIMARY KEY ("company_id", "day", "user_id")
);--> statement-breakpoint
CREATE FUNCTION attendance_daily_apply(c attendance_cycles, sign integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	tz text;
BEGIN
	SELECT time_zone INTO tz FROM companies WHERE id = c.company_id;
	IF tz IS NULL THEN
		RETURN; -- the company is being deleted; its days go with it
	END IF;
	IF c.finished_at IS NOT NULL THEN
		INSERT INTO attendance_daily AS d (company_id, day, user_id, finished, served, support_ms, ratings, rating_sum)
		VALUES (c.company_id, (c.finished_at AT TIME ZONE tz)::date, coalesce(c.user_id, 0), sign,
		        sign * (c.started_at IS NOT NULL)::int,
		        sign * coalesce(round(extract(epoch FROM c.finished_at - c.started_at) * 1000), 0)::bigint,
		        sign * (c.rating IS NOT NULL)::int, sign * coalesce(c.rating, 0))
		ON CONFLICT (company_id, day, user_id) DO UPDATE SET
			finished = d.finished + excluded.finished, served = d.served + excluded.served,
			support_ms = d.support_ms + excluded.support_ms, ratings = d.ratings + excluded.ratings,
			rating_sum = d.rating_sum + excluded.rating_sum;
	END IF;
	IF c.started_at IS NOT NULL THEN
		INSERT INTO attendance_daily AS d (company_id, day, user_id, started, waited, wait_ms)
		VALUES (c.company_id, (c.started_at AT TIME ZONE tz)::date, coalesce(c.user_id, 0), sign,
		        sign * (c.queued_at IS NOT NULL)::int,
		        sign * coalesce(round(extract(epoch FROM c.started_at - c.queued_at) * 1000), 0)::bigint)
		ON CONFLICT (company_id, day, user_id) DO UPDATE SET
			started = d.started + excluded.started, waited = d.waited + excluded.waited, wait_ms = d.wait_ms + excluded.wait_ms;
	END IF;
	IF c.first_of_contact THEN
		INSERT INTO attendance_daily AS d (company_id, day, user_id, leads)
		VALUES (c.company_id, (c.created_at AT TIME ZONE tz)::date, coalesce(c.user_id, 0), sign)
		ON CONFLICT (company_id, day, user_id) DO UPDATE SET leads = d.leads + excluded.leads;
	END IF;
END $$;--> statement-breakpoint
CREATE FUNCTION attendance_daily_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' THEN
		PERFORM attendance_daily_apply(OLD, -1);
	END IF;
	IF TG_OP <> 'DELETE' THEN
		PERFORM attendance_daily_apply(NEW, 1);
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER attendance_daily_insert AFTER INSERT ON attendance_cycles
	FOR EACH ROW EXECUTE FUNCTION attendance_daily_sync();--> statement-breakpoint
CREATE TRIGGER attendance_daily_delete AFTER DELETE ON attendance_cycles
	FOR EACH ROW EXECUTE FUNCTION attendance_daily_sync();--> statement-breakpoint
CREATE TRIGGER attendance_daily_update AFTER UPDATE ON attendance_cycles
	FOR EACH ROW WHEN (
		OLD.company_id IS DISTINCT FROM NEW.company_id OR OLD.user_id IS DISTINCT FROM NEW.user_id
		OR OLD.queued_at IS DISTINCT FROM NEW.queued_at OR OLD.started_at IS DISTINCT FROM NEW.started_at
		OR OLD.finished_at IS DISTINCT FROM NEW.finished_at OR OLD.rating IS DISTINCT FROM NEW.rating
		OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.first_of_contact IS DISTINCT FROM NEW.first_of_contact
	) EXECUTE FUNCTION attendance_daily_sync();--> statement-breakpoint
-- Recomputes one company's days from its cycles (backfill below; a new time zone moves every day).
CREATE FUNCTION attendance_daily_rebuild(company integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	tz text;
BEGIN
	SELECT time_zone INTO tz FROM companies WHERE id = company;
	DELETE FROM attendance_daily WHERE company_id = company;
	IF tz IS NULL THEN
		RETURN;
	END IF;
	INSERT INTO attendance_daily (company_id, day, user_id, finished, served, support_ms, ratings, rating_sum, started, waited, wait_ms, leads)
	SELECT company, day, user_id, sum(finished), sum(served), sum(support_ms), sum(ratings), sum(rating_sum), sum(started), sum(waited), sum(wait_ms), sum(leads)
	FROM (
		SELECT (finished_at AT TIME ZONE tz)::date AS day, coalesce(user_id, 0) AS user_id, 1 AS finished, (started_at IS NOT NULL)::int AS served,
		       coalesce(round(extract(epoch FROM finished_at - started_at) * 1000), 0)::bigint AS support_ms,
		       (rating IS NOT NULL)::int AS ratings, coalesce(rating, 0) AS rating_sum, 0 AS started, 0 AS waited, 0::bigint AS wait_ms, 0 AS leads
		FROM attendance_cycles WHERE company_id = company AND finished_at IS NOT NULL
		UNION ALL
		SELECT (started_at AT TIME ZONE tz)::date, coalesce(user_id, 0), 0, 0, 0, 0, 0, 1, (queued_at IS NOT NULL)::int,
		       coalesce(round(extract(epoch FROM started_at - queued_at) * 1000), 0)::bigint, 0
		FROM attendance_cycles WHERE company_id = company AND started_at IS NOT NULL
		UNION ALL
		SELECT (created_at AT TIME ZONE tz)::date, coalesce(user_id, 0), 0, 0, 0, 0, 0, 0, 0, 0, 1
		FROM attendance_cycles WHERE company_id = company AND first_of_contact
	) x
	GROUP BY day, user_id;
END $$;--> statement-breakpoint
CREATE FUNCTION attendance_daily_time_zone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM attendance_daily_rebuild(NEW.id);
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER attendance_daily_time_zone AFTER UPDATE OF time_zone ON companies
	FOR EACH ROW WHEN (OLD.time_zone IS DISTINCT FROM NEW.time_zone) EXECUTE FUNCTION attendance_daily_time_zone();--> statement-breakpoint
SELECT attendance_daily_rebuild(id) FROM companies;--> statement-breakpoint
-- Wait time and leads now come from the days; what stays live is small: cycles in progress and waiting.
DROP INDEX IF EXISTS "attendance_cycles_company_started_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "attendance_cycles_company_first_contact_idx";--> statement-breakpoint
CREATE INDEX "attendance_cycles_company_in_progress_idx" ON "attendance_cycles" USING btree ("company_id","started_at") WHERE "attendance_cycles"."finished_at" is null and "attendance_cycles"."started_at" is not null;
