import { connect, Events, type NatsConnection } from 'nats';
import type { Logger } from '../logger';
import { EVENTS_CHANNEL, parseEventNotice } from '../event-notice';
import type { BusHandlers, UpdateBus } from './update-bus';

/** How long a publication waits for the server's acknowledgement before it is left to the publication sweep. */
const FLUSH_TIMEOUT_MS = 5_000;

/**
 * The bus on a NATS server (`NATS_URL`): core NATS publish and subscribe on one subject, with the client reconnecting
 * for ever (every 250 ms) when the server goes away. A publication resolves once the server has answered a ping sent
 * after it, so a notice the server never took stays in the realtime outbox; a subscription that lost its connection
 * reports a gap once it is back, and the subscribers read what they missed from the store.
 */
export async function natsBus({ url, logger, name }: { url: string; logger: Logger; name: string }): Promise<UpdateBus> {
  let connection: NatsConnection;
  try {
    connection = await connect({ servers: url.split(','), name, reconnect: true, maxReconnectAttempts: -1, reconnectTimeWait: 250, pingInterval: 10_000 });
  } catch (error) {
    // NATS_URL may carry a user and password (nats://user:pass@host): never in a message (the client's own error,
    // the cause, names no server).
    throw new Error(withoutUserinfo(`cannot reach the NATS server at ${url}: ${(error as Error).message}`), { cause: error });
  }
  const nc = connection;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let connected = true;
  const gapListeners = new Set<() => void>();
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === Events.Disconnect) {
        connected = false;
        logger.warn({ bus: 'nats' }, 'update bus: disconnected from NATS; reconnecting');
      } else if (status.type === Events.Reconnect) {
        connected = true;
        logger.warn({ bus: 'nats' }, 'update bus: reconnected to NATS; subscriptions catch up from the store');
        for (const onGap of gapListeners) onGap();
      }
    }
  })();

  return {
    kind: 'nats',
    async publish(notices) {
      if (notices.length === 0) return;
      for (const notice of notices) nc.publish(EVENTS_CHANNEL, encoder.encode(JSON.stringify(notice)));
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          nc.flush(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('NATS did not acknowledge the publication in time')), FLUSH_TIMEOUT_MS);
          }),
        ]);
      } finally {
        clearTimeout(timer);
      }
    },
    async subscribe(handlers: BusHandlers) {
      const subscription = nc.subscribe(EVENTS_CHANNEL);
      const onGap = () => handlers.onGap();
      gapListeners.add(onGap);
      const done = (async () => {
        for await (const message of subscription) {
          const notice = parseEventNotice(decoder.decode(message.data));
          if (notice) handlers.onNotice(notice);
          else logger.warn({ bus: 'nats' }, 'update bus: ignoring a malformed events message');
        }
      })();
      // The subscription is registered once the server has it: a notice published after this resolves reaches it.
      await nc.flush();
      return {
        async unsubscribe() {
          gapListeners.delete(onGap);
          subscription.unsubscribe();
          await done;
        },
      };
    },
    status: () => (connected && !nc.isClosed() ? { ok: true, detail: 'connected to NATS' } : { ok: false, detail: 'NATS unreachable' }),
    async close() {
      await nc.drain().catch(() => nc.close());
    },
  };
}

/** `text` with the user and password taken out of every nats:// or tls:// URL in it (`nats://user:pass@host` → `nats://host`). */
export function withoutUserinfo(text: string): string {
  return text.replace(/\b(nats|tls):\/\/[^\s,]*@/g, '$1://');
}
