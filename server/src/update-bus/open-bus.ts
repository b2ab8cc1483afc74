import type { Env } from '../env';
import type { Database } from '../db/client';
import type { Listener } from '../db/resilient-listener';
import type { Logger } from '../logger';
import { natsBus } from './nats-bus';
import { postgresBus } from './postgres-bus';
import type { UpdateBus } from './update-bus';

/** The bus REALTIME_BUS names: PostgreSQL's LISTEN/NOTIFY on `listener` (the default), or the NATS server at NATS_URL. */
export async function openUpdateBus(
  env: Pick<Env, 'REALTIME_BUS' | 'NATS_URL'>,
  deps: { db: Database; listener: Listener; logger: Logger; name: string; listenerStatus?: () => { ok: boolean; detail: string } },
): Promise<UpdateBus> {
  if (env.REALTIME_BUS === 'nats') return natsBus({ url: env.NATS_URL!, logger: deps.logger, name: deps.name });
  return postgresBus({ db: deps.db, listener: deps.listener, logger: deps.logger, ...(deps.listenerStatus ? { status: deps.listenerStatus } : {}) });
}
