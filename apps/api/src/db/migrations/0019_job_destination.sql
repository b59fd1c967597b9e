-- Issue 39, item 2: a job's destination (a mail's recipient domain), so a worker runs only so many jobs of one
-- destination at once and slow destinations share one slot: a relay stalling on one domain holds few of the mail
-- lane's slots. Jobs already queued have none and run as before.
ALTER TABLE "jobs" ADD COLUMN "destination" text;
