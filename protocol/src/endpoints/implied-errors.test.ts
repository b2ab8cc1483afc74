import { describe, expect, it } from 'vitest';
import { allErrors, impliedErrors } from './implied-errors';
import { ENDPOINT, ENDPOINTS, type EndpointDescription } from './index';

const TABLE: EndpointDescription[] = Object.values(ENDPOINT);
const byId = (operationId: string) => ENDPOINTS.find((e) => e.operationId === operationId)!;

describe("an endpoint's errors", () => {
  it('are written once: no entry of the table lists an error its description already implies', () => {
    for (const endpoint of TABLE) {
      const implied = impliedErrors(endpoint);
      expect(
        endpoint.errors.filter((code) => implied.includes(code)),
        endpoint.operationId,
      ).toEqual([]);
      expect(new Set(endpoint.errors).size, endpoint.operationId).toBe(endpoint.errors.length);
    }
  });

  it('in ENDPOINTS are the implied ones and its own, each once, ending with what every endpoint may meet', () => {
    for (const [entry, listed] of TABLE.map((e, i) => [e, ENDPOINTS[i]!] as const)) {
      expect(listed.errors, entry.operationId).toEqual(allErrors(entry));
      expect(new Set(listed.errors).size).toBe(listed.errors.length);
      expect(listed.errors).toEqual(expect.arrayContaining([...entry.errors, ...impliedErrors(entry)]));
      expect(listed.errors.slice(-2)).toEqual(['internal_error', 'database_unavailable']);
      expect(allErrors(listed)).toEqual(listed.errors); // adding them again changes nothing
    }
  });

  it('a JSON body brings the body errors; a GET without one does not', () => {
    for (const code of ['validation_failed', 'malformed_json', 'malformed_request', 'unsupported_media_type', 'payload_too_large'] as const) {
      expect(byId('initTransaction').errors).toContain(code);
      expect(byId('redeliverCallback').errors).toContain(code);
    }
    expect(byId('getMerchantSettings').errors).not.toContain('malformed_json');
    expect(byId('getMerchantSettings').errors).not.toContain('validation_failed');
  });

  it('who may call brings its refusals: a credential is authenticated, a client ID and a session token are checked by origin', () => {
    for (const id of ['getTransaction', 'listCredentials', 'terminalCurrent']) {
      expect(byId(id).errors).toEqual(expect.arrayContaining(['unauthorized', 'client_id_not_allowed', 'credential_not_allowed', 'rate_limited']));
    }
    for (const id of ['createSdkSession', 'submitSdkPayment']) {
      expect(byId(id).errors).toEqual(expect.arrayContaining(['unauthorized', 'origin_not_allowed']));
      expect(byId(id).errors).not.toContain('credential_not_allowed');
    }
    expect(byId('getPaymentLinkState').errors).not.toContain('unauthorized');
  });

  it('an Idempotency-Key brings its two conflicts, only where the endpoint takes one', () => {
    for (const endpoint of ENDPOINTS) {
      expect(endpoint.errors.includes('idempotency_key_in_use'), endpoint.operationId).toBe(endpoint.idempotent);
      expect(endpoint.errors.includes('idempotency_key_reused'), endpoint.operationId).toBe(endpoint.idempotent);
    }
  });

  it('a query or a path parameter checked before the handler brings validation_failed; a page answers a bad link with its own 404', () => {
    expect(byId('listTransactions').errors).toContain('validation_failed');
    expect(byId('getTransaction').errors).toContain('validation_failed');
    expect(byId('nextStickerPayment').errors).toContain('validation_failed');
    expect(byId('getPaymentPage').errors).not.toContain('validation_failed');
    expect(byId('getPaymentQrCode').errors).not.toContain('validation_failed');
    expect(byId('liveness').errors).toEqual(['internal_error', 'database_unavailable']);
  });
});
