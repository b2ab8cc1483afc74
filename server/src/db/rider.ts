import type { SQL } from 'drizzle-orm';
import type { Queryable } from './client';
import type { ParamSlots, ParamValues, SomeParam } from './reusable-query';

/** A rider's parameters: one group, which the statement it rides in names after the rider. */
export type RiderParams = Record<string, SomeParam>;

/**
 * A write that rides in another statement as one of its data-modifying CTEs, costing no statement and no round trip
 * of its own: a change's event append carries the rows the change writes beside its event (a payment, a token, a
 * refund, a refund's outcome, its processor request's move to done). Each module declares its riders beside its own
 * SQL (`rider`, `guardedRider`), and the carrying statement composes the ones it is given, built once for each set of
 * riders. A guarded rider's write may be refused by its own `WHERE`: it then writes no row, the carrying statement
 * answers so, and the carrier throws what `refused` gives, so the whole change rolls back.
 */
export interface Rider {
  /** Its CTE's name in the carrying statement: a name always builds the same SQL. */
  readonly name: string;
  readonly params: RiderParams;
  /** The write; a guarded one returns a row when it wrote (`.returning()`). */
  readonly build: (db: Queryable, slots: Record<string, SQL>) => SQL;
  readonly values: Record<string, unknown>;
  /** A guarded rider's refusal, thrown by the carrier when its write wrote nothing; null for a write that always happens. */
  readonly refused: (() => Error) | null;
}

type Slots<P extends RiderParams> = ParamSlots<{ rider: P }>['rider'];
type Values<P extends RiderParams> = ParamValues<{ rider: P }>['rider'];

/** Declares a rider that always writes (an insert): its name, its parameters and its SQL; each call gives one write's values. */
export function rider<P extends RiderParams>(name: string, params: P, build: (db: Queryable, slots: Slots<P>) => SQL): (values: Values<P>) => Rider {
  checkName(name);
  return (values) => ({ name, params, build: build as Rider['build'], values: values as Rider['values'], refused: null });
}

/**
 * Declares a guarded rider (an update whose `WHERE` may refuse it, returning a row when it wrote); each call gives one
 * write's values and what its refusal throws.
 */
export function guardedRider<P extends RiderParams>(
  name: string,
  params: P,
  build: (db: Queryable, slots: Slots<P>) => SQL,
): (values: Values<P>, refused: () => Error) => Rider {
  checkName(name);
  return (values, refused) => ({ name, params, build: build as Rider['build'], values: values as Rider['values'], refused });
}

/** A rider's name is its CTE's and its answer column's: a plain SQL identifier. */
function checkName(name: string): void {
  if (!/^[a-z][a-z_]*$/.test(name)) throw new Error(`a rider's name is a lowercase SQL identifier, not "${name}"`);
}
