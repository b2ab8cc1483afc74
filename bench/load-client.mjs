// A keep-alive HTTP load client on node:http: each virtual client owns one persistent connection and runs its
// iteration back to back (a closed loop), so "8 concurrent clients" means exactly 8 requests in flight at most.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

export class HttpError extends Error {
  /**
   * @param {string} method
   * @param {string} path
   * @param {number} status
   * @param {string} text
   */
  constructor(method, path, status, text) {
    super(`${method} ${path} answered ${status}: ${text.slice(0, 300)}`);
    this.status = status;
  }
}

/**
 * @typedef {{ body?: unknown, headers?: Record<string, string>, onTime?: (ms: number) => void, onFirstByte?: (ms: number) => void, text?: boolean }} RequestOptions
 * @typedef {{ request(method: string, path: string, options?: RequestOptions): Promise<any>, close(): void }} Connection
 */

/**
 * One virtual client: a single keep-alive connection to `baseUrl`.
 * @param {string} baseUrl
 * @returns {Connection}
 */
export function createConnection(baseUrl) {
  const { hostname, port } = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return {
    /**
     * Resolves with the parsed JSON answer (the text with `text: true`); throws HttpError on a non-2xx. `onTime` gets
     * the round trip in ms, `onFirstByte` the time until the answer's status line and headers arrived.
     */
    request(method, path, { body, headers = {}, onTime, onFirstByte, text: asText = false } = {}) {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      /** @type {Record<string, string | number>} */
      const allHeaders = { ...headers };
      if (payload !== undefined) {
        allHeaders['content-type'] = 'application/json';
        allHeaders['content-length'] = Buffer.byteLength(payload);
      }
      const started = performance.now();
      return new Promise((resolve, reject) => {
        const req = http.request({ agent, host: hostname, port, method, path, headers: allHeaders }, (res) => {
          const firstByteMs = performance.now() - started;
          /** @type {Buffer[]} */
          const chunks = [];
          res.on('data', (chunk) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const ms = performance.now() - started;
            const text = Buffer.concat(chunks).toString('utf8');
            const status = res.statusCode ?? 0;
            if (status < 200 || status >= 300) return reject(new HttpError(method, path, status, text));
            onTime?.(ms);
            onFirstByte?.(firstByteMs);
            if (asText) return resolve(text);
            try {
              resolve(text === '' ? null : JSON.parse(text));
            } catch (error) {
              reject(error);
            }
          });
        });
        req.on('error', reject);
        req.end(payload);
      });
    },
    close: () => agent.destroy(),
  };
}

/**
 * Runs `iteration(clientIndex)` on `clients` virtual clients back to back for `durationMs` and counts the
 * iterations that finished inside the window. Those still running at its end are awaited but not counted, and
 * `onWindowEnd` is called at the end so recorders stop taking samples. Failures are counted by message.
 */
/**
 * @param {{ clients: number, durationMs: number, iteration: (clientIndex: number) => Promise<unknown>, onWindowEnd?: () => void }} options
 */
export async function runClosedLoop({ clients, durationMs, iteration, onWindowEnd }) {
  const started = performance.now();
  const deadline = started + durationMs;
  let completed = 0;
  let failed = 0;
  /** @type {Map<string, number>} */
  const failures = new Map();
  const timer = setTimeout(() => onWindowEnd?.(), durationMs);
  await Promise.all(
    Array.from({ length: clients }, async (_, index) => {
      while (performance.now() < deadline) {
        try {
          await iteration(index);
          if (performance.now() <= deadline) completed += 1;
        } catch (error) {
          failed += 1;
          const key = String(/** @type {Error} */ (error)?.message ?? error).slice(0, 200);
          failures.set(key, (failures.get(key) ?? 0) + 1);
          if (failed > 100 && completed === 0) throw new Error(`every iteration fails: ${key}`, { cause: error });
        }
      }
    }),
  ).finally(() => clearTimeout(timer));
  onWindowEnd?.();
  const elapsedS = durationMs / 1000;
  return { completed, failed, failures, elapsedS, perSecond: completed / elapsedS };
}

/**
 * Runs up to `count` iterations on `clients` virtual clients as fast as they go (for preparing data), stopping
 * early after `maxMs`; resolves with the results of those that ran.
 */
/**
 * @template T
 * @param {{ clients: number, count: number, iteration: (clientIndex: number, n: number) => Promise<T>, maxMs?: number }} options
 * @returns {Promise<T[]>}
 */
export async function runCount({ clients, count, iteration, maxMs = Infinity }) {
  let next = 0;
  const deadline = performance.now() + maxMs;
  /** @type {T[]} */
  const results = [];
  await Promise.all(
    Array.from({ length: clients }, async (_, index) => {
      while (next < count && performance.now() < deadline) {
        const mine = next++;
        results[mine] = await iteration(index, mine);
      }
    }),
  );
  return results.filter((r) => r !== undefined);
}
