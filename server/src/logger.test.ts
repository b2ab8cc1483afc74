import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, REDACTED, redactSensitive } from './logger';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, logger: createLogger({ level: 'info', destination }) };
}

describe('log redaction', () => {
  it('drops credentials, card data and personal data at any depth', () => {
    const { lines, logger } = capture();
    logger.info(
      {
        headers: { authorization: 'Bearer sk_abcdefghijklmnop', 'content-type': 'application/json' },
        body: {
          apiKey: 'sk_abcdefghijklmnopqrstu',
          card: { number: '4242424242424242', cvc: '123', expMonth: 12 },
          billingAddress: { street: '1 Main St', email: 'jane@example.com' },
          shippingInformation: { fullName: 'Jane Doe' },
          amount: 1250,
          TransactionNumber: 'TX123',
        },
      },
      'payment attempt',
    );
    const text = lines.join('');
    for (const secret of ['sk_abcdefghijklmnop', '4242424242424242', '1 Main St', 'jane@example.com', 'Jane Doe', '"123"']) {
      expect(text).not.toContain(secret);
    }
    const line = JSON.parse(text) as { body: Record<string, unknown>; headers: Record<string, unknown> };
    expect(line.body.amount).toBe(1250);
    expect(line.body.TransactionNumber).toBe('TX123');
    expect(line.headers['content-type']).toBe('application/json');
    expect(line.headers.authorization).toBe(REDACTED);
  });

  it('scrubs card numbers and keys that appear inside text, including the message and errors', () => {
    const { lines, logger } = capture();
    logger.error({ err: new Error('card 4242 4242 4242 4242 refused for key bk_ABCDEFGH12345678') }, 'saw whsec_c2VjcmV0c2VjcmV0 in a header');
    const text = lines.join('');
    expect(text).not.toMatch(/4242 4242|bk_ABCDEFGH|whsec_c2Vj/);
    expect(text).toContain(REDACTED);
  });

  it('drops the parameters of a failed query, which carry what the request wrote, and keeps the query', () => {
    const { lines, logger } = capture();
    const failed = new Error('Failed query: insert into "transactions" ("email") values ($1)\nparams: jane@example.com,+972501234567');
    logger.error({ err: new Error('wrapped', { cause: failed }) }, 'unhandled error');
    const text = lines.join('');
    expect(text).not.toMatch(/jane@example\.com|972501234567/);
    expect(text).toContain('insert into \\"transactions\\"');
    expect(text).toContain(`params: ${REDACTED}`);
  });

  it('leaves ordinary values alone', () => {
    expect(redactSensitive({ status: 5, list: ['a', 1], when: '2026-01-01T00:00:00Z', requestId: 'abc-123' })).toEqual({
      status: 5,
      list: ['a', 1],
      when: '2026-01-01T00:00:00Z',
      requestId: 'abc-123',
    });
  });
});

describe('the access log', () => {
  it('names the route pattern, never the ids in the path or the query', async () => {
    const { createApp } = await import('./app');
    const { SandboxProcessor } = await import('./processor/sandbox-processor');
    const { loadEnv } = await import('./env');
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger({ level: 'info', destination });
    const http = await import('node:http');
    const postgres = (await import('postgres')).default;
    const sql = postgres('postgres://nobody@127.0.0.1:1/none', { max: 1, connect_timeout: 1 });
    const server = http.createServer(
      createApp({ env: loadEnv({}), db: {} as never, sql, logger, clock: { now: () => new Date() }, processor: new SandboxProcessor() }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as import('node:net').AddressInfo).port;
    await fetch(`http://127.0.0.1:${port}/pay/SECRETLINKIDSECRETLINKIDSECRETLI/state?x=1`).catch(() => undefined);
    await fetch(`http://127.0.0.1:${port}/nothing/here?token=abc`);
    server.close();
    await sql.end({ timeout: 1 });
    const text = lines.join('');
    expect(text).toContain('"route":"/pay/{linkId}/state"');
    expect(text).toContain('"route":"unmatched"');
    expect(text).not.toContain('SECRETLINKID');
    expect(text).not.toContain('token=abc');
  });
});
