import { describe, expect, it } from 'vitest';
import { HEALTH_ENDPOINTS } from './health';
import { composeEndpointTable, ENDPOINT, ENDPOINTS } from './index';
import { SANDBOX_ENDPOINTS } from './sandbox';
import { TRANSACTION_ENDPOINTS } from './transactions';

describe('the endpoint table composed from its domains', () => {
  it('holds every entry of each domain, in the order the domains are given', () => {
    const table = composeEndpointTable(HEALTH_ENDPOINTS, SANDBOX_ENDPOINTS);
    expect(Object.keys(table)).toEqual([...Object.keys(HEALTH_ENDPOINTS), ...Object.keys(SANDBOX_ENDPOINTS)]);
    expect(table.readiness).toBe(HEALTH_ENDPOINTS.readiness);
    expect(ENDPOINT.initTransaction).toBe(TRANSACTION_ENDPOINTS.initTransaction);
    expect(ENDPOINTS.map((e) => e.operationId)).toEqual(Object.keys(ENDPOINT));
  });

  it('gives every POST an Idempotency-Key, as the text says of every mutating POST', () => {
    expect(ENDPOINTS.filter((e) => e.method === 'post' && !e.idempotent).map((e) => e.operationId)).toEqual([]);
  });

  it('refuses an operation two domains declare, instead of letting the second replace the first', () => {
    expect(() => composeEndpointTable(HEALTH_ENDPOINTS, { health: HEALTH_ENDPOINTS.health })).toThrow('the endpoint health is declared by two domains');
  });

  it('refuses an entry filed under another name than its operationId', () => {
    expect(() => composeEndpointTable({ healthz: HEALTH_ENDPOINTS.health })).toThrow('entry healthz declares the operationId health');
  });
});
