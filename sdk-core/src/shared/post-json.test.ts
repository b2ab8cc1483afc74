/** postJson against the mocked service: the answer checked, refusals and failures as SDK errors, a caller's abort. */
import { expect } from '@open-wc/testing';
import { SdkSessionWire } from '@svc/protocol/light';
import { calls, http, HttpResponse, resetApiMock, startApiMock, worker } from '../testing/api-mock';
import { problem } from '../testing/api-fixtures.js';
import { postJson } from './post-json';
import { paymentError } from './sdk-errors';

const options = { what: 'The test call', validator: SdkSessionWire, onProblem: paymentError };
const url = () => `${location.origin}/sdk/sessions`;

describe('postJson', () => {
  before(() => startApiMock());
  afterEach(() => resetApiMock());

  it('posts JSON with the bearer token and no cookies, and answers the checked value', async () => {
    const result = await postJson(url(), { clientId: 'ck_test', mode: 'sandbox' }, { ...options, token: 'tok_1' });
    expect(result.ok).to.equal(true);
    expect(result.ok && result.value.sessionId).to.match(/^ses_/);
    expect(calls[0]!.authorization).to.equal('Bearer tok_1');
    expect(calls[0]!.body).to.deep.equal({ clientId: 'ck_test', mode: 'sandbox' });
  });

  it('sends the extra headers it is given (an Idempotency-Key), never in place of the JSON content type', async () => {
    let seen: Headers | null = null;
    worker.use(
      http.post(
        '*/sdk/sessions',
        ({ request }) => {
          seen = request.headers;
          return HttpResponse.json({
            sessionId: 'ses_1',
            sessionToken: 'tok',
            paymentMethods: ['card'],
            expiresAt: '2030-01-01T00:00:00.000Z',
            maxInstallments: 1,
          });
        },
        { once: true },
      ),
    );
    const result = await postJson(url(), {}, { ...options, headers: { 'idempotency-key': 'pay-1', 'content-type': 'text/plain' } });
    expect(result.ok).to.equal(true);
    expect(seen!.get('idempotency-key')).to.equal('pay-1');
    expect(seen!.get('content-type')).to.equal('application/json');
  });

  it('a refusal is the SDK error of its problem, with the problem paths', async () => {
    worker.use(
      http.post(
        '*/sdk/sessions',
        () =>
          HttpResponse.json(problem(400, 'invalid_card', 'bad number', [{ path: 'card.number', message: 'x' }]).body as Record<string, unknown>, {
            status: 400,
          }),
        { once: true },
      ),
    );
    const result = await postJson(url(), {}, options);
    expect(result).to.deep.include({ ok: false, paths: ['card.number'] });
    expect(!result.ok && result.error.code).to.equal('invalid_card');
  });

  it('an answer that does not parse is internal_error naming the field; no connection is network_error', async () => {
    worker.use(http.post('*/sdk/sessions', () => HttpResponse.json({ sessionId: 1 }), { once: true }));
    const odd = await postJson(url(), {}, options);
    expect(!odd.ok && odd.error.code).to.equal('internal_error');
    expect(!odd.ok && odd.error.message)
      .to.contain('The test call')
      .and.to.contain('sessionId');
    worker.use(http.post('*/sdk/sessions', () => HttpResponse.error(), { once: true }));
    const offline = await postJson(url(), {}, options);
    expect(offline).to.deep.include({ ok: false, paths: [] });
    expect(!offline.ok && offline.error.code).to.equal('network_error');
  });

  it('rejects when the caller aborts, rather than reporting an error nobody waits for', async () => {
    const abort = new AbortController();
    worker.use(http.post('*/sdk/sessions', () => new Promise<Response>(() => {}), { once: true }));
    const pending = postJson(url(), {}, { ...options, signal: abort.signal });
    abort.abort();
    let rejected = false;
    await pending.catch(() => {
      rejected = true;
    });
    expect(rejected).to.equal(true);
  });
});
