-- A lifecycle updates its transaction four times; two of those updates (the consumer payment's in-flight mark, the
-- capture's reservation) change no indexed column and can be HOT updates (no index entry), but only when the row's
-- new version fits on its own page. With pages filled to 100 % by the inserts, about one in seven of them found no
-- room and wrote a new entry into each of the table's indexes (bench/findings.md, lifecycle). Pages are now filled
-- to 85 %, which leaves room for a row's next versions; existing pages keep their rows until they are rewritten.
ALTER TABLE "transactions" SET (fillfactor = 85);
