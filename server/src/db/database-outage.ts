/**
 * Whether an error says the database cannot be reached or answer now — as opposed to a query being wrong. Such an
 * error is an outage: requests answer 503 `database_unavailable` with Retry-After, and background work waits and
 * retries, logging the outage once rather than a stack per attempt.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return outageCode(error) !== null;
}

/** The driver, socket or server code that makes `error` an outage, or null when it is none. */
export function outageCode(error: unknown): string | null {
  // drizzle wraps a driver error in its own (DrizzleQueryError, the driver's as `cause`): look down the chain.
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    if (DRIVER_CODES.has(code) || SOCKET_CODES.has(code) || code.startsWith('08') || SERVER_CODES.has(code)) return code;
  }
  return null;
}

/**
 * Whether `error` says the connection a statement ran on was lost (closed, reset, its backend terminated, as on a
 * database restart or failover), rather than that the database did not answer in time or cannot be reached: work
 * that may be done again is worth another try on a fresh connection before the loss is taken for an outage.
 */
export function isConnectionLost(error: unknown): boolean {
  const code = outageCode(error);
  return code !== null && (CONNECTION_LOST_CODES.has(code) || code.startsWith('08'));
}

/** The driver's closed connections, a reset or broken socket, a backend terminated (57P01 admin, 57P02 crash shutdown). */
const CONNECTION_LOST_CODES = new Set(['CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'ECONNRESET', 'EPIPE', '57P01', '57P02']);

/** postgres.js: the connection closed, ended or was destroyed, or could not be opened in time; ours: no answer. */
const DRIVER_CODES = new Set(['CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT', 'DATABASE_ANSWER_TIMEOUT']);
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/**
 * SQLSTATE: 08xxx connection exceptions (above); the backend terminated (57P01 admin shutdown, 57P02 crash shutdown),
 * the server starting or stopping (57P03), too many connections (53300), a statement or idle transaction ended by its
 * timeout (57014, 25P03), the database shutting down (57P05 idle session timeout), a server that takes no writes now
 * (25006: a primary being demoted or set read-only, a standby reached in a failover).
 */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '57P05', '53300', '57014', '25P03', '25006']);

/**
 * Logs an outage once, not once per failed attempt: the first failure as a warning with its error, then nothing
 * until `recovered()` says the database answers again (logged once too).
 */
export class OutageLog {
  #down = false;

  constructor(
    private readonly logger: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void },
    private readonly what: string,
  ) {}

  failed(error: unknown): void {
    if (this.#down) return;
    this.#down = true;
    const e = error as { message?: string };
    this.logger.warn(
      { code: outageCode(error) ?? 'database_unavailable', reason: e.message },
      `${this.what}: the database is unavailable; retrying until it answers`,
    );
  }

  recovered(): void {
    if (!this.#down) return;
    this.#down = false;
    this.logger.info({}, `${this.what}: the database answers again`);
  }
}
