import { Status, type ConsumerPayRequest, type PaymentLinkState, type RequiresAction, type SdkSession, type Transaction } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { useTestApp, UNTHROTTLED } from '../../test/harness';
import { cardNumbered, codeOf, consumerPays, TEST_CARD } from '../../test/merchant-client';
import { SandboxProcessor } from '../../processor/sandbox-processor';

const t = useTestApp({ env: UNTHROTTLED, merchantName: 'Secure Shop', origins: ['https://shop.example.com'] });

const CHALLENGE = '4000000000003220';
const FRICTIONLESS = '4000000000003055';
const CHALLENGE_DECLINED = '4000008400001629';

const withInstallments = (installments: number): ConsumerPayRequest => ({
  method: 'card',
  card: { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' },
  installments,
});
const authenticationPath = (answer: RequiresAction) => new URL(answer.action.url).pathname;

async function linkPayment(number: string, init: Record<string, unknown> = {}) {
  const created = await t.client.init({ amount: 25, currency: 'EUR', ...init });
  const paid = await consumerPays(t.app, created.body, cardNumbered(number));
  return { created: created.body, paid };
}

async function answer(action: RequiresAction, result: 'complete' | 'fail') {
  const res = await t.app.request(authenticationPath(action), { body: { result } });
  return { status: res.status, body: (await res.json()) as { outcome: string; returnUrl: string | null } };
}

const transactionOf = async (number: string) => (await t.client.get(number)).body;

describe('3-D Secure on a payment link', () => {
  it('a challenge answers 202 with the bank page, waits in status 15, and completing it approves the same payment once', async () => {
    const { created, paid } = await linkPayment(CHALLENGE);
    expect(paid.status).toBe(202);
    const action = paid.body as unknown as RequiresAction;
    expect(action).toMatchObject({ status: 'requires_action', action: { type: 'three_d_secure' } });
    expect(action.action.url.startsWith(`${t.app.env.PUBLIC_BASE_URL}/authentication/auth_`)).toBe(true);
    expect((await transactionOf(created.TransactionNumber)).status).toBe(Status.AwaitingAuthentication);
    // Nothing else pays the link meanwhile.
    expect(codeOf((await consumerPays(t.app, created, TEST_CARD)).body)).toBe('transaction_not_payable');

    const page = await t.app.request(authenticationPath(action) + '?lang=he');
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('<html lang="he" dir="rtl">');
    expect(html).toContain('השלמת האימות');

    const done = await answer(action, 'complete');
    expect(done).toMatchObject({ status: 200, body: { outcome: 'authenticated', returnUrl: created.transactionPage.qrURL } });
    const again = await answer(action, 'complete');
    expect(again.body.outcome).toBe('authenticated');
    const after = await transactionOf(created.TransactionNumber);
    expect(after.status).toBe(Status.Approved);
    // One payment: a second completion charges nothing more.
    expect(after.payments.map((p) => p.status)).toEqual(['succeeded']);
    expect(after.confirmation?.threeDSecure).toMatchObject({ authenticated: true, flow: 'challenge', liabilityShift: true });
    expect(after.lastDeclineCode).toBeNull();
  });

  it('a failed challenge is a decline authentication_failed, and the link can be paid again', async () => {
    const { created, paid } = await linkPayment(CHALLENGE);
    const done = await answer(paid.body as unknown as RequiresAction, 'fail');
    expect(done.body.outcome).toBe('failed');
    const after = await transactionOf(created.TransactionNumber);
    expect(after).toMatchObject({ status: Status.Declined, lastDeclineCode: 'authentication_failed' });
    expect((await answer(paid.body as unknown as RequiresAction, 'complete')).body.outcome).toBe('failed');
    const retry = await consumerPays(t.app, created, TEST_CARD);
    expect(retry.status).toBe(200);
    expect((retry.body as PaymentLinkState).status).toBe(Status.Approved);
    expect((await transactionOf(created.TransactionNumber)).lastDeclineCode).toBe('authentication_failed');
  });

  it('a frictionless card approves at once with flow frictionless', async () => {
    const { created, paid } = await linkPayment(FRICTIONLESS);
    expect(paid.status).toBe(200);
    const after = await transactionOf(created.TransactionNumber);
    expect(after.status).toBe(Status.Approved);
    expect(after.confirmation?.threeDSecure).toMatchObject({ authenticated: true, flow: 'frictionless' });
  });

  it('a challenge then declined card is declined card_declined once the challenge is completed', async () => {
    const { created, paid } = await linkPayment(CHALLENGE_DECLINED, { methodType: 'authorize' });
    expect(paid.status).toBe(202);
    await answer(paid.body as unknown as RequiresAction, 'complete');
    const after = await transactionOf(created.TransactionNumber);
    expect(after).toMatchObject({ status: Status.Declined, lastDeclineCode: 'card_declined', lastDeclineProcessorCode: 'do_not_honor' });
  });

  it('an authentication left unanswered for 10 minutes times out into authentication_failed (the test clock)', async () => {
    const { created, paid } = await linkPayment(CHALLENGE);
    expect(paid.status).toBe(202);
    const early = await t.client.call('POST', '/sandbox/clock/advance', { seconds: 9 * 60 });
    expect(early.status).toBe(200);
    expect((await transactionOf(created.TransactionNumber)).status).toBe(Status.AwaitingAuthentication);
    expect((await t.client.call('POST', '/sandbox/clock/advance', { seconds: 61 })).status).toBe(200);
    expect(await transactionOf(created.TransactionNumber)).toMatchObject({ status: Status.Declined, lastDeclineCode: 'authentication_failed' });
    expect((await answer(paid.body as unknown as RequiresAction, 'complete')).body.outcome).toBe('failed');
  });

  it('failed authentications count for card testing', async () => {
    const created = (await t.client.init({ amount: 3, currency: 'USD' })).body;
    for (let attempt = 0; attempt < 5; attempt++) {
      const paid = await consumerPays(t.app, created, cardNumbered(CHALLENGE));
      expect(paid.status).toBe(202);
      await answer(paid.body as unknown as RequiresAction, 'fail');
    }
    const refused = await consumerPays(t.app, created, TEST_CARD);
    expect(refused.status).toBe(429);
    expect(codeOf(refused.body)).toBe('too_many_declines');
  });

  it('an unknown authentication is a 404 page', async () => {
    const res = await t.app.request(`/authentication/auth_${'x'.repeat(32)}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
  });
});

describe('the sandbox processor', () => {
  const card = (number: string) => ({ method: 'card' as const, card: { number, expMonth: 12, expYear: 2099, cvc: '123' } });
  const details = { transactionNumber: 'T1', installments: 1 };

  it('asks for the bank on the challenge cards, and completing one answers the same decision to every completion', async () => {
    const processor = new SandboxProcessor();
    const asked = await processor.sale(card(CHALLENGE), 100, 'USD', 'prq_a', details);
    expect(asked).toMatchObject({ outcome: 'requires_action', processor: 'alpha', actionUrl: null });
    if (asked.outcome !== 'requires_action') throw new Error('no action');
    const first = await processor.completeAuthentication(asked.reference, 'prq_a');
    expect(first).toMatchObject({ outcome: 'approved', threeDSecure: { flow: 'challenge' } });
    expect(await processor.completeAuthentication(asked.reference, 'prq_a')).toEqual(first);
    const declined = await processor.authorize(card(CHALLENGE_DECLINED), 100, 'USD', 'prq_b', details);
    if (declined.outcome !== 'requires_action') throw new Error('no action');
    expect(await processor.completeAuthentication(declined.reference, 'prq_b')).toMatchObject({ outcome: 'declined', code: 'card_declined' });
  });

  it('a reversed payment is never completed', async () => {
    const processor = new SandboxProcessor();
    const asked = await processor.sale(card(CHALLENGE), 100, 'USD', 'prq_c', details);
    if (asked.outcome !== 'requires_action') throw new Error('no action');
    await processor.reverse('prq_c');
    expect((await processor.completeAuthentication(asked.reference, 'prq_c')).outcome).toBe('failed');
  });
});

describe('installments', () => {
  it('are passed on and confirmed, and above maxInstallments refused naming installments', async () => {
    const created = (await t.client.init({ amount: 300, currency: 'ILS', maxInstallments: 6 })).body;
    const state = (await (await t.app.request(`/pay/${created.transactionPage.qrURL.split('/pay/')[1]}/state`)).json()) as PaymentLinkState;
    expect(state.maxInstallments).toBe(6);
    const tooMany = await consumerPays(t.app, created, withInstallments(7));
    expect(tooMany.status).toBe(400);
    expect(codeOf(tooMany.body)).toBe('validation_failed');
    expect(JSON.stringify(tooMany.body)).toContain('installments');
    const page = await (await t.app.request(created.transactionPage.qrURL.replace(t.app.env.PUBLIC_BASE_URL, ''))).text();
    expect(page).toContain('<label for="installments">Number of payments</label>');
    expect(page).toContain('<option value="6">6</option>');
    const paid = await consumerPays(t.app, created, withInstallments(3));
    expect(paid.status).toBe(200);
    expect((await transactionOf(created.TransactionNumber)).confirmation?.installments).toBe(3);
  });

  it('init refuses maxInstallments outside 1 to 36', async () => {
    const res = await t.client.init({ amount: 1, currency: 'USD', maxInstallments: 37 });
    expect(res.status).toBe(400);
  });
});

describe('3-D Secure in a widget session', () => {
  const serviceOrigin = () => new URL(t.app.env.PUBLIC_BASE_URL).origin;
  async function session(maxInstallments?: number): Promise<SdkSession> {
    const res = await t.app.request('/sdk/sessions', {
      headers: { origin: 'https://shop.example.com' },
      body: { clientId: t.merchant.clientId, methodType: 'manual_capture', mode: 'sandbox', ...(maxInstallments ? { maxInstallments } : {}) },
    });
    return (await res.json()) as SdkSession;
  }
  const pay = (s: SdkSession, number: string, extra: Record<string, unknown> = {}) =>
    t.app.request(`/sdk/sessions/${s.sessionId}/payments`, {
      headers: { authorization: `Bearer ${s.sessionToken}`, origin: serviceOrigin() },
      body: { method: 'card', card: { number, expMonth: 12, expYear: 2099, cvc: '123' }, amount: 1050, currency: 'USD', ...extra },
    });

  it('a challenge waits in status 15 and, completed, awaits the commit; the bank page may be framed by the session origin and the widget page only', async () => {
    const s = await session();
    const res = await pay(s, CHALLENGE);
    expect(res.status).toBe(202);
    const action = (await res.json()) as RequiresAction;
    // The widget follows the transaction it names on the session's websocket.
    expect(action.transactionNumber).toMatch(/^\S+$/);
    const page = await t.app.request(authenticationPath(action));
    // The merchant page (Elements' dialog) and the service's own widget page (the iframe SDK's dialog), nothing else.
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors https://shop.example.com 'self';");
    const done = await answer(action, 'complete');
    expect(done.body).toEqual({ outcome: 'authenticated', returnUrl: null });
  });

  it('the cancel ends it as authentication_failed with the session token only', async () => {
    const s = await session();
    const action = (await (await pay(s, CHALLENGE)).json()) as RequiresAction;
    const path = `${authenticationPath(action)}/cancel`;
    const other = await session();
    expect((await t.app.request(path, { headers: { authorization: `Bearer ${other.sessionToken}` }, body: {} })).status).toBe(404);
    const cancelled = await t.app.request(path, { headers: { authorization: `Bearer ${s.sessionToken}` }, body: {} });
    expect(cancelled.status).toBe(200);
    const transaction = (await cancelled.json()) as Transaction;
    expect(transaction).toMatchObject({ status: Status.Declined, lastDeclineCode: 'authentication_failed', paymentDetails: null });
  });

  it('caps installments at the session maximum', async () => {
    const s = await session(3);
    expect(s.maxInstallments).toBe(3);
    const res = await pay(s, '4242424242424242', { installments: 4 });
    expect(res.status).toBe(400);
    const ok = await pay(s, '4242424242424242', { installments: 3 });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as Transaction).confirmation?.installments).toBe(3);
  });
});

/** A processor without installments: its consumers are offered none, and a request for more than one is refused. */
class NoInstallments extends SandboxProcessor {
  override readonly capabilities = { ...new SandboxProcessor().capabilities, installments: false };
}
const n = useTestApp({ env: UNTHROTTLED, processor: new NoInstallments() });

describe('installments on a processor without them', () => {
  it('caps maxInstallments to 1 and refuses installments 409 processor_unsupported', async () => {
    const created = (await n.client.init({ amount: 30, currency: 'USD', maxInstallments: 6 })).body;
    const state = (await (await n.app.request(`/pay/${created.transactionPage.qrURL.split('/pay/')[1]}/state`)).json()) as PaymentLinkState;
    expect(state.maxInstallments).toBe(1);
    const paid = await consumerPays(n.app, created, withInstallments(2));
    expect(paid.status).toBe(409);
    expect(codeOf(paid.body)).toBe('processor_unsupported');
  });
});
