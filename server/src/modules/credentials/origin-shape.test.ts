import { endpointRequest, type ProblemDetails } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { parseCommand, UsageError } from '../../cli/command';
import { bearer } from '../../test/app';
import { useTestApp, UNTHROTTLED } from '../../test/harness';
import { provisionMerchant } from '../merchants';

/**
 * A client ID's allowed origin goes into the card frame's frame-ancestors as it is: every way of setting one takes a
 * scheme, a host and a port only, never a wildcard, a quote or a comma.
 */
const t = useTestApp({ env: UNTHROTTLED, origins: ['https://shop.example.com'] });

const NOT_ORIGINS = ['https://*.shop.example.com', "https://shop.example.com'", 'https://a,b.example', 'https://a"b.example', 'https://a;b.example'];

async function call(operationId: string, options: { params?: Record<string, string>; body: unknown }) {
  const { method, path } = endpointRequest(operationId, options.params ?? {});
  const res = await t.app.request(path, { method, headers: bearer(t.merchant.apiKey), body: options.body });
  return { status: res.status, body: (await res.json()) as ProblemDetails & { credentialId?: string } };
}

describe('an allowed origin that is not a scheme, a host and a port', () => {
  it.each(NOT_ORIGINS)('%s is refused by the API, creating a client ID or adding to one', async (origin) => {
    const created = await call('createCredential', { body: { kind: 'client', allowedOrigins: [origin] } });
    expect(created.status).toBe(400);
    expect(created.body.errors?.map((e) => e.path)).toEqual(['allowedOrigins.0']);

    const [client] = await t.database.sql<{ id: string }[]>`select id from api_credentials where merchant_id = ${t.merchant.merchantId} and kind = 'client'`;
    const added = await call('addAllowedOrigin', { params: { credentialId: client!.id }, body: { origin } });
    expect(added.status).toBe(400);
    expect(added.body.errors?.map((e) => e.path)).toEqual(['origin']);
  });

  it.each(NOT_ORIGINS)('%s is refused by the CLI', (origin) => {
    expect(() => parseCommand(['merchant', 'create', '--name', 'Shop', '--origin', origin])).toThrow(UsageError);
  });

  it.each(NOT_ORIGINS)('%s is refused when a merchant is provisioned (the CLI and the sandbox bootstrap)', async (origin) => {
    await expect(provisionMerchant(t.database.db, { name: 'Shop', origins: [origin], publicBaseUrl: t.app.env.PUBLIC_BASE_URL })).rejects.toThrow(
      /not an origin/,
    );
  });

  it('is never stored', async () => {
    const stored = await t.database.sql<{ origin: string }[]>`select unnest(allowed_origins) as origin from api_credentials`;
    expect(stored.map((row) => row.origin)).toEqual(['https://shop.example.com']);
  });
});

describe('an origin stored before the origin rule', () => {
  it('can still be removed by the API and the CLI, as the list shows it', async () => {
    const [client] = await t.database.sql<{ id: string }[]>`select id from api_credentials where merchant_id = ${t.merchant.merchantId} and kind = 'client'`;
    const stale = ['https://*.shop.example.com', 'https://a,b.example'];
    await t.database.sql`update api_credentials set allowed_origins = allowed_origins || ${stale}::text[] where id = ${client!.id}`;

    const removed = await call('removeAllowedOrigin', { params: { credentialId: client!.id }, body: { origin: stale[0] } });
    expect(removed.status).toBe(200);
    const [row] = await t.database.sql<{ allowed_origins: string[] }[]>`select allowed_origins from api_credentials where id = ${client!.id}`;
    expect(row!.allowed_origins).toEqual(['https://shop.example.com', stale[1]]);

    expect(parseCommand(['origins', 'remove', '--merchant', t.merchant.merchantId, client!.id, stale[1]!])).toMatchObject({ origin: stale[1] });
    // Adding one stays refused.
    expect(() => parseCommand(['origins', 'add', '--merchant', t.merchant.merchantId, client!.id, stale[1]!])).toThrow(UsageError);
  });
});
