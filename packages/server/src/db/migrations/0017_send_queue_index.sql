-- Replies waiting for their connection (issue 21, modules/messages/sendQueue.ts) are found by
-- data_json->>'queued': the queue's job, its minute sweep, the expiry sweep and the order check of a new reply.
-- Few rows ever carry the marker (it is removed once the message is sent or failed), so a partial index on them
-- keeps each of those reads to the connection's queued rows instead of a scan of every message.
CREATE INDEX "messages_queued_idx" ON "messages" USING btree ("company_id","connection_id","id") WHERE ("data_json"->>'queued') IS NOT NULL;
