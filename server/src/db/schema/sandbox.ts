import { sql } from 'drizzle-orm';
import { bigint, check, pgTable, smallint } from 'drizzle-orm/pg-core';

/** The sandbox test clock: one row, an offset from real time shared by every instance. */
export const sandboxClock = pgTable(
  'sandbox_clock',
  {
    id: smallint('id').primaryKey().default(1),
    offsetMs: bigint('offset_ms', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('sandbox_clock_single_row', sql`${t.id} = 1`), check('sandbox_clock_forward_only', sql`${t.offsetMs} >= 0`)],
);
