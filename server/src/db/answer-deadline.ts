import net from 'node:net';

/** The error a connection is destroyed with when PostgreSQL leaves a request unanswered past its deadline. */
export class DatabaseAnswerTimeoutError extends Error {
  override name = 'DatabaseAnswerTimeoutError';
  readonly code = 'DATABASE_ANSWER_TIMEOUT';
}

interface DriverSocketOptions {
  host: string[];
  port: number[];
  path?: string | false;
}

/**
 * A socket factory for postgres.js (its `socket` option) that bounds every wait for PostgreSQL: once the driver has
 * written to a connection, something must come back within `deadlineMs`, or the connection is destroyed and what
 * waited on it fails (DATABASE_ANSWER_TIMEOUT). A database that keeps the TCP connection open but answers nothing
 * (a partition, a frozen host) would otherwise hold a request, and the pool, for as long as TCP keepalive lets it.
 * Set `deadlineMs` above the statement timeout, so a slow statement is ended by PostgreSQL first, with its own error.
 * An idle connection has no deadline: only a write starts one, and any bytes from the server end it. (Plain TCP: with
 * TLS the driver wraps the socket and the bound is TCP keepalive.)
 */
export function socketWithAnswerDeadline(deadlineMs: number) {
  return (options: DriverSocketOptions): net.Socket => {
    const host = options.host[0] ?? 'localhost';
    const port = options.port[0] ?? 5432;
    const socket = options.path ? net.connect(options.path) : net.connect({ host, port });
    Object.assign(socket, { host, port });
    let deadline: NodeJS.Timeout | null = null;
    const answered = () => {
      if (deadline) clearTimeout(deadline);
      deadline = null;
    };
    const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
    socket.write = ((...args: unknown[]) => {
      deadline ??= setTimeout(() => {
        deadline = null;
        socket.destroy(new DatabaseAnswerTimeoutError(`the database at ${host}:${port} did not answer within ${deadlineMs} ms`));
      }, deadlineMs);
      return write(...args);
    }) as typeof socket.write;
    socket.on('data', answered);
    socket.once('close', answered);
    return socket;
  };
}
