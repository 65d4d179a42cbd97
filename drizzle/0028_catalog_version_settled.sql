-- The catalogue version moves before the changing transaction commits (a sequence is not transactional),
-- so another process reading it in between built its index from the rows before the change and said it had
-- caught up — a stale price on that process until the next change (issue 54). Every move of the version now
-- also takes a shared advisory lock held until the transaction ends: writers never wait on each other, and a
-- process about to build its index waits for the holders it sees to end (read-model.server.ts
-- writesSettled) — each of them moved the version it read, or will move it again.
CREATE OR REPLACE FUNCTION catalog_version_move() RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(20261201, 54);
  RETURN nextval('catalog_version');
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION catalog_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM catalog_version_move();
  RETURN NULL;
END $$;
