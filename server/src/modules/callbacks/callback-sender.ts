import http from 'node:http';
import https from 'node:https';
import { AddressNotAllowedError, callbackHostProblem, guardedLookup } from './address-guard';

export const CALLBACK_TIMEOUT_MS = 10_000;
export const MAX_RESPONSE_BYTES = 64 * 1024;

export interface SendRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body: string;
  allowPrivateNetworks: boolean;
  timeoutMs?: number;
  /** Name resolution; tests hand in their own resolver. Always wrapped by the guard unless private networks are allowed. */
  lookup?: typeof guardedLookup;
}

export interface SendOutcome {
  /** A 2xx answer with no more than 64 KB of body. */
  ok: boolean;
  httpStatus: number | null;
  error: string | null;
  /** Refused, reset, DNS, timeout: retried for days. An HTTP answer or a refused address is not. */
  communicationError: boolean;
  durationMs: number;
}

const COMMUNICATION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ECONNABORTED',
  'TIMEOUT',
]);

// Keep-alive pools per origin; every new connection goes through the guarded lookup.
const agents = {
  guarded: { http: new http.Agent({ keepAlive: true, maxSockets: 32 }), https: new https.Agent({ keepAlive: true, maxSockets: 32 }) },
  open: { http: new http.Agent({ keepAlive: true, maxSockets: 32 }), https: new https.Agent({ keepAlive: true, maxSockets: 32 }) },
};

/**
 * One attempt: no redirects (a 3xx is a failure), 10 s for the whole exchange, at most 64 KB of the answer read
 * (the rest is cut off), and never a connection to an address the guard refuses.
 */
export function sendCallback(request: SendRequest): Promise<SendOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const url = new URL(request.url);
  if (!request.allowPrivateNetworks) {
    const problem = callbackHostProblem(url);
    if (problem) return Promise.resolve({ ok: false, httpStatus: null, error: `address not allowed: ${problem}`, communicationError: false, durationMs: 0 });
  }
  const secure = url.protocol === 'https:';
  const pool = request.allowPrivateNetworks ? agents.open : agents.guarded;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<SendOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, durationMs: elapsed() });
    };
    const req = (secure ? https : http).request(url, {
      method: request.method,
      headers: { ...request.headers, ...(request.method === 'POST' ? { 'content-length': String(Buffer.byteLength(request.body)) } : {}) },
      agent: secure ? pool.https : pool.http,
      ...(request.allowPrivateNetworks ? {} : { lookup: request.lookup ?? guardedLookup }),
    });
    const timer = setTimeout(() => {
      req.destroy(Object.assign(new Error(`no answer within ${(request.timeoutMs ?? CALLBACK_TIMEOUT_MS) / 1000} s`), { code: 'TIMEOUT' }));
    }, request.timeoutMs ?? CALLBACK_TIMEOUT_MS);
    req.on('response', (res) => {
      let read = 0;
      const status = res.statusCode ?? 0;
      const success = status >= 200 && status < 300;
      const done = () => finish({ ok: success, httpStatus: status, error: success ? null : `HTTP ${status}`, communicationError: false });
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_RESPONSE_BYTES) {
          // Drop the connection rather than read gigabytes; an endpoint that answers so much is misbehaving.
          finish({ ok: false, httpStatus: status, error: `the answer is larger than ${MAX_RESPONSE_BYTES / 1024} KB`, communicationError: false });
          res.destroy();
        }
      });
      res.on('end', done);
      res.on('error', done);
      res.on('close', done);
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error instanceof AddressNotAllowedError) {
        finish({ ok: false, httpStatus: null, error: `address not allowed: ${error.message}`, communicationError: false });
        return;
      }
      const code = error.code ?? '';
      finish({
        ok: false,
        httpStatus: null,
        error: `${code ? `${code}: ` : ''}${error.message}`,
        communicationError: COMMUNICATION_CODES.has(code) || /socket hang up/.test(error.message),
      });
    });
    req.end(request.method === 'POST' ? request.body : undefined);
  });
}
