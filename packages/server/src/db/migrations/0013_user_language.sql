-- The interface language each user picked in the user menu (issue 16): 'pt', 'en' or 'es'; NULL until the user
-- picks one, so the browser's language stays the default.
ALTER TABLE "users" ADD COLUMN "language" varchar(5);
