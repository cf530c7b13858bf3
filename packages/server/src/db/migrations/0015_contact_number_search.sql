-- The ticket search matches a contact's number digits (number LIKE '%digits%', db/search.ts callers): a trigram
-- index answers that side like contacts_name_trgm_idx answers the name, instead of a scan of every contact.
CREATE INDEX IF NOT EXISTS "contacts_number_trgm_idx" ON "contacts" USING gin ("number" gin_trgm_ops);
