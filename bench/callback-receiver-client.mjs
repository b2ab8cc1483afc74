// Starts callback-receiver.mjs and asks it questions over IPC.
import path from 'node:path';
import { forkTracked, stopChild } from './children.mjs';
import { ROOT } from './server-process.mjs';

export async function startCallbackReceiver() {
  const child = forkTracked('callback-receiver', path.join(ROOT, 'bench', 'callback-receiver.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ask = (type) =>
    new Promise((resolve, reject) => {
      const onMessage = (message) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message);
      };
      const onExit = () => reject(new Error('the callback receiver exited'));
      child.on('message', onMessage);
      child.once('exit', onExit);
      if (type !== 'listening') child.send({ type });
    });
  const { port } = await ask('listening');
  return {
    url: `http://127.0.0.1:${port}/callbacks`,
    reset: () => ask('reset'),
    count: async () => (await ask('count')).count,
    /** `[receivedAtMs, updatedAtMs, webhookId][]` since the last reset. */
    receipts: async () => (await ask('report')).receipts,
    stop: () => stopChild(child, 5_000),
  };
}
