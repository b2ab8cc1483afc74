import { ProvisionedMerchantSchema } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { bearer } from '../test/app';
import { runNode } from '../test/process';
import { parseCommand, UsageError } from './command';
import { useTestApp } from '../test/harness';

const t = useTestApp();

const svc = (...args: string[]) => runNode(['bin/svc.mjs', ...args], { DATABASE_URL: t.database.url });

describe('svc merchant create', () => {
  it('--json prints the credentials as one JSON object and nothing else on stdout', async () => {
    const result = await svc(
      'merchant',
      'create',
      '--name',
      'Corner Shop',
      '--origin',
      'https://shop.example.com',
      '--origin',
      'http://localhost:5173/',
      '--json',
    );
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    const created = ProvisionedMerchantSchema.strict().parse(JSON.parse(result.stdout));
    expect(Object.keys(created).sort()).toEqual(['apiKey', 'branchApiKey', 'branchId', 'clientId', 'deviceId', 'hmacSecret', 'merchantId', 'stickerUrl']);
    // The sticker's public page, on the service's PUBLIC_BASE_URL; it opens (nothing is waiting yet).
    expect(created.stickerUrl).toMatch(/^http:\/\/localhost:8080\/s\/[0-9a-f]{32}$/);
    const sticker = await t.app.request(new URL(created.stickerUrl).pathname);
    expect(sticker.status).toBe(200);
    expect(await sticker.text()).toContain('No payment is waiting');

    const [row] = await t.database.sql<{ name: string; allowed_origins: string[] }[]>`
      select m.name, c.allowed_origins from merchants m join api_credentials c on c.merchant_id = m.id and c.kind = 'client'
      where m.id = ${created.merchantId}`;
    expect(row).toEqual({ name: 'Corner Shop', allowed_origins: ['https://shop.example.com', 'http://localhost:5173'] });

    // The printed key works against the API at once.
    const res = await t.app.request('/transactions/TNOTHING00000000', { headers: bearer(created.apiKey) });
    expect(res.status).toBe(404);
  });

  it('without --json prints a readable listing', async () => {
    const result = await svc('merchant', 'create', '--name', 'Readable');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Created merchant "Readable"/);
    expect(result.stdout).toMatch(/apiKey\s+sk_/);
  });

  it.each([
    [['merchant', 'create']],
    [['merchant', 'create', '--name']],
    [['merchant', 'create', '--name', '  ']],
    [['merchant']],
    [[]],
    [['merchant', 'create', '--name', 'X', '--origin', 'https://x.example.com/path']],
    [['merchant', 'create', '--name', 'X', '--bogus']],
  ])('usage error %j: usage on stderr, nothing on stdout, exit 2', async (args) => {
    const result = await svc(...args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/usage: svc merchant create --name NAME/);
  });

  it('a database that does not answer: one line on stderr, exit 1', async () => {
    const result = await runNode(['bin/svc.mjs', 'merchant', 'create', '--name', 'X'], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/cannot connect to the database at postgres:\/\/nobody@127\.0\.0\.1:1\/none/);
  });
});

describe('svc merchant create and the public base URL', () => {
  it("prints the sticker URL on the base URL the running service recorded, unless the CLI's own PUBLIC_BASE_URL names one", async () => {
    // What a service started with PUBLIC_BASE_URL=https://pay.example.com records on its database.
    await t.database.sql`insert into service_settings (id, public_base_url, updated_at) values (1, 'https://pay.example.com', now())`;
    try {
      const told = await svc('merchant', 'create', '--name', 'Told', '--json');
      expect(told.code).toBe(0);
      expect(ProvisionedMerchantSchema.parse(JSON.parse(told.stdout)).stickerUrl).toMatch(/^https:\/\/pay\.example\.com\/s\/[0-9a-f]{32}$/);
      const own = await runNode(['bin/svc.mjs', 'merchant', 'create', '--name', 'Own', '--json'], {
        DATABASE_URL: t.database.url,
        PUBLIC_BASE_URL: 'https://other.example.com/',
      });
      expect(ProvisionedMerchantSchema.parse(JSON.parse(own.stdout)).stickerUrl).toMatch(/^https:\/\/other\.example\.com\/s\/[0-9a-f]{32}$/);
    } finally {
      await t.database.sql`delete from service_settings`;
    }
  });
});

describe('parseCommand', () => {
  it('normalises and de-duplicates origins', () => {
    expect(parseCommand(['merchant', 'create', '--name', ' A ', '--origin', 'https://a.example', '--origin', 'https://a.example/'])).toEqual({
      command: 'merchant create',
      name: 'A',
      origins: ['https://a.example'],
      json: false,
    });
  });

  it('throws UsageError for an unknown command', () => {
    expect(() => parseCommand(['branch', 'create'])).toThrow(UsageError);
  });

  it('reads processor-requests and its retry, which needs one request id', () => {
    expect(parseCommand(['processor-requests', '--json'])).toEqual({ command: 'processor-requests list', json: true });
    const id = '7B3C0F1E-9A2D-4C5B-8E6F-0123456789AB';
    expect(parseCommand(['processor-requests', 'retry', id])).toEqual({ command: 'processor-requests retry', id: id.toLowerCase() });
    expect(() => parseCommand(['processor-requests', 'retry'])).toThrow(UsageError);
    expect(() => parseCommand(['processor-requests', 'retry', 'prq_1'])).toThrow(/not a processor request id/);
    expect(() => parseCommand(['processor-requests', 'retry', id, id])).toThrow(UsageError);
    expect(() => parseCommand(['processor-requests', '--name', 'x'])).toThrow(/merchant create/);
  });
});

/** The control characters in `text` other than the newlines that end its lines. */
const controlsIn = (text: string) => [...text].filter((char) => char !== '\n' && (char < ' ' || (char >= '\u007f' && char <= '\u009f')));

describe('svc processor-requests', () => {
  it('prints stored text with its control characters escaped, never as terminal escape sequences', async () => {
    // An error message as a processor might return it: colours, a screen clear, a C1 control sequence introducer, a bell.
    const lastError = 'timeout \u001b[31mred\u001b[0m \u001b[2J\u009b31m\u0007\r\nnext line\u007f';
    const [row] = await t.database.sql<{ id: string }[]>`
      insert into processor_requests (request_key, merchant_id, operation, amount_cents, currency, state, attempts, last_error, lease_expires_at, created_at)
      values (${'prq_key\u001b]0;title\u0007'}, ${t.merchant.merchantId}, 'sale', 500, 'USD', 'needs_review', 3, ${lastError}, now(), now())
      returning id`;
    const listed = await svc('processor-requests');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(row!.id);
    expect(controlsIn(listed.stdout)).toEqual([]);
    expect(listed.stdout).toContain('last error: timeout \\u001b[31mred\\u001b[0m \\u001b[2J\\u009b31m\\u0007\\r\\nnext line\\u007f');
    expect(listed.stdout).toContain('request key prq_key\\u001b]0;title\\u0007');

    const json = await svc('processor-requests', '--json');
    expect(controlsIn(json.stdout)).toEqual([]);
    const [parsed] = JSON.parse(json.stdout) as { lastError: string }[];
    expect(parsed!.lastError).toBe(lastError);
    await t.database.sql`delete from processor_requests where id = ${row!.id}`;
  });
});
