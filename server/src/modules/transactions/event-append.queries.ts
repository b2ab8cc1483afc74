import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { columnParam, param, reusableStatement, type ParamSlots, type ParamSpec, type ParamValues } from '../../db/reusable-query';
import type { Rider } from '../../db/rider';
import { callbackDeliveries, eventPublications, merchantEvents, transactionEvents, transactions, webhookEndpoints } from '../../db/schema';
import type { TransactionRow } from './transactions.queries';

export interface EventAppend {
  eventId: string;
  /** The transaction as the change left it (its new sequence). */
  row: TransactionRow;
  type: 'transaction.created' | 'transaction.updated';
  payload: string;
  at: Date;
  /** Whether to queue the update's callback delivery (the outbox row, due at once) with it. */
  callback: boolean;
  /** The merchant's events the change sends whatever came before (`transaction.updated`, `refund.updated`...). */
  eventTypes: readonly string[];
  /**
   * The event the transaction's new status sends (`transaction.approved`...), sent only when the status is not the one
   * of the transaction's event before this one; null when its status sends none.
   */
  statusEventType: string | null;
  /** The refund object as JSON text, carried by the refund events; null for a change without one. */
  refund: string | null;
  /** What the update bus carries once the change commits (an EventNotice as JSON): kept in the realtime outbox until then. */
  notice: string;
}

/**
 * Appends a transaction event, queues its callback delivery when asked and its publication on the update bus, in one
 * statement: one round trip inside the change's database transaction. The same statement logs the merchant's events
 * the change sends (merchant_events, what `GET /events` lists) and queues each, as a callback delivery row, for every
 * webhook endpoint of the merchant that enabled its type and is not disabled. The rows the change writes beside its event
 * ride in the same statement (`riders`, each declared by the module whose rows it writes), in the order given. When
 * a guarded rider's write was refused, the first such rider's refusal is thrown and the caller's transaction rolls back.
 */
export async function appendEvent(db: Queryable, e: EventAppend, riders: readonly Rider[] = []): Promise<{ fanned: boolean }> {
  const { row } = e;
  const values: Record<string, unknown> = {
    eventId: e.eventId,
    transactionId: row.id,
    merchantId: row.merchantId,
    sequence: row.sequence,
    type: e.type,
    payload: e.payload,
    at: e.at,
    callbackUrl: row.callbackUrl,
    callbackMethod: row.callbackMethod,
    callback: e.callback,
    eventTypes: JSON.stringify(e.eventTypes),
    statusEventType: e.statusEventType,
    status: row.status,
    eventRefund: e.refund,
    notice: e.notice,
  };
  for (const rider of riders) values[rider.name] = rider.values;
  const [appended] = await eventStatementFor(riders)(db, values as ParamValues<typeof EVENT_PARAMS>);
  const refused = riders.find((rider) => rider.refused && !appended?.[rider.name]);
  if (refused?.refused) throw refused.refused();
  return { fanned: appended?.fanned === true };
}

/** The event statement's own parameters: the event, its delivery and its publication. */
const EVENT_PARAMS = {
  eventId: columnParam(transactionEvents.id),
  transactionId: columnParam(transactionEvents.transactionId),
  merchantId: columnParam(transactionEvents.merchantId),
  sequence: columnParam(transactionEvents.sequence),
  type: columnParam(transactionEvents.type),
  payload: columnParam(transactionEvents.payload),
  at: columnParam(transactionEvents.createdAt),
  callbackUrl: columnParam(transactions.callbackUrl),
  callbackMethod: columnParam(transactions.callbackMethod),
  callback: param.boolean,
  /** A JSON array of text. */
  eventTypes: param.json,
  statusEventType: param.nullable(param.text),
  status: columnParam(transactions.status),
  eventRefund: param.nullable(param.text),
  notice: param.text,
};

/** For each guarded rider, by its name, whether its write wrote. */
type EventStatement = (db: Queryable, values: ParamValues<typeof EVENT_PARAMS>) => Promise<Record<string, boolean>[]>;

const eventStatements = new Map<string, EventStatement>();

/** The event's statement with these riders, built once for each list of rider names, when first needed. */
function eventStatementFor(riders: readonly Rider[]): EventStatement {
  const names = riders.map((rider) => rider.name);
  if (new Set(names).size !== names.length) throw new Error(`an event statement carries each rider once, not ${names.join(', ')}`);
  const taken = names.find((name) => name in EVENT_PARAMS);
  if (taken) throw new Error(`a rider cannot be named "${taken}": the event statement has a parameter of that name`);
  const key = names.join(' ');
  let statement = eventStatements.get(key);
  if (!statement) {
    const params: ParamSpec = { ...EVENT_PARAMS };
    for (const rider of riders) params[rider.name] = rider.params;
    statement = reusableStatement(params, (db, slots) =>
      eventStatement(
        slots as ParamSlots<typeof EVENT_PARAMS>,
        riders.map((rider) => ({ name: rider.name, write: rider.build(db, slots[rider.name] as Record<string, SQL>), guarded: rider.refused !== null })),
      ),
    ) as EventStatement;
    eventStatements.set(key, statement);
  }
  return statement;
}

function eventStatement(p: ParamSlots<typeof EVENT_PARAMS>, riders: { name: string; write: SQL; guarded: boolean }[]): SQL {
  const ridden = riders.map((rider) => sql`${sql.identifier(rider.name)} as (${rider.write}), `);
  const wrote = riders
    .filter((rider) => rider.guarded)
    .map((rider) => sql`, exists (select 1 from ${sql.identifier(rider.name)}) as ${sql.identifier(rider.name)}`);
  return sql`
    with ${sql.join(ridden)}event as (
      insert into ${transactionEvents} (id, transaction_id, merchant_id, sequence, type, payload, created_at)
      values (${p.eventId}, ${p.transactionId}, ${p.merchantId}, ${p.sequence}, ${p.type}, ${p.payload}, ${p.at})
      returning id
    ), delivery as (
      insert into ${callbackDeliveries} (event_id, transaction_id, merchant_id, sequence, url, method, next_attempt_at, created_at, updated_at)
      select event.id, ${p.transactionId}, ${p.merchantId}, ${p.sequence}, ${p.callbackUrl}, ${p.callbackMethod}, ${p.at}, ${p.at}, ${p.at}
      from event where ${p.callback}
    ), prior as (
      select (prior.payload::json ->> 'status')::integer as status
      from ${transactionEvents} prior
      where prior.transaction_id = ${p.transactionId} and prior.sequence < ${p.sequence}
      order by prior.sequence desc
      limit 1
    ), kinds as (
      select json_array_elements_text(${p.eventTypes}) as type
      union
      select ${p.statusEventType} where ${p.statusEventType} is not null and not exists (select 1 from prior where prior.status = ${p.status})
    ), logged as (
      insert into ${merchantEvents} (merchant_id, type, transaction_id, transaction_event_id, refund, created_at)
      select ${p.merchantId}, kinds.type, ${p.transactionId}, event.id,
             case when kinds.type in ('refund.updated', 'transaction.refunded') then ${p.eventRefund} end, ${p.at}
      from event, kinds
      returning id, type
    ), fanned as (
      insert into ${callbackDeliveries} (event_id, endpoint_id, merchant_event_id, transaction_id, merchant_id, sequence, url, method, next_attempt_at, created_at, updated_at)
      select ${p.eventId}, endpoint.id, logged.id, ${p.transactionId}, ${p.merchantId}, ${p.sequence}, endpoint.url, 'POST', ${p.at}, ${p.at}, ${p.at}
      from logged
      join ${webhookEndpoints} endpoint on endpoint.merchant_id = ${p.merchantId} and endpoint.deleted_at is null and not endpoint.disabled
        and (logged.type = any(endpoint.enabled_events) or '*' = any(endpoint.enabled_events))
      returning 1
    ), publication as (
      insert into ${eventPublications} (event_id, merchant_id, notice)
      select event.id, ${p.merchantId}, ${p.notice} from event
    )
    select exists (select 1 from fanned) as fanned${sql.join(wrote)}
    from event`;
}
