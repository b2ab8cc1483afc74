import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import adyen from '@adyen/api-library';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import { http, HttpResponse, type HttpHandler } from 'msw';
import { setupServer, type SetupServer } from 'msw/node';
import { peer } from './peers';

/**
 * A test double of Adyen's Checkout API v71 built from Adyen's own published description
 * (`shared/peers/adyen/CheckoutService-v71.json`), answered by msw in the test's process (nothing leaves it):
 * - every request the connector sends is checked against the description's request schema (PaymentRequest,
 *   PaymentCaptureRequest, …; `additionalProperties: false` there, so a field Adyen does not know fails), its
 *   X-API-Key and its Idempotency-Key; a request off the schema is answered as Adyen answers one (400, the published
 *   `generic-400` example) and kept in `invalid`, which a test checks is empty;
 * - answers are the published examples (`post-payments-card-direct-200`, `…-captures-capture-201`, …) with the
 *   request's own amounts and references and fresh pspReferences;
 * - a repeated Idempotency-Key gets the first answer again, as Adyen keeps it;
 * - declines follow the card number (`DECLINING_CARDS`), as Adyen's test cards and test holder names do;
 * - a card of `CHALLENGE_CARDS` is sent to the bank (`RedirectShopper`, the published 3-D Secure redirect example);
 *   the test plays the bank with `bankAnswers`, which gives the `redirectResult` the shopper comes back with, and
 *   `/payments/details` decides on it (the published redirect example, or a refusal 11, "3D Not Authenticated").
 */
export interface AdyenDouble {
  server: SetupServer;
  /** Every request received, in order: path, headers (lower case), body, and the body answered. */
  requests: { path: string; headers: Record<string, string>; body: Record<string, unknown>; answer: unknown }[];
  /** Requests that broke the published request schema (ajv's findings), or were sent without the right key. */
  invalid: string[];
  /**
   * Holds the answer of the next call to `path` (a suffix: `/captures`) until `release()`: an answer slow to come.
   * Adyen has decided it by then (`arrived`): the request and its answer are in `requests`.
   */
  holdAnswers(pathSuffix: string): { release(): void; arrived: Promise<void> };
  /** Answers the next calls with a network error, as an unreachable Adyen. */
  failNetwork(on: boolean): void;
  /** The shopper at the bank of the payment `pspReference` (sent there by `RedirectShopper`): the `redirectResult` it returns with. */
  bankAnswers(pspReference: string, authenticated: boolean): string;
  close(): void;
}

export const ADYEN_TEST_ACCOUNT = { apiKey: 'AQE_test_api_key', merchantAccount: 'SvcTestMerchantECOM', checkoutUrl: 'https://checkout-test.adyen.com/v71' };
/** An HMAC key as Adyen's Customer Area shows one: 64 hex characters. */
export const ADYEN_TEST_HMAC_KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';

/** Card numbers the double sends to the bank for 3-D Secure (the one of Adyen's published redirect example). */
export const CHALLENGE_CARDS = new Set(['4212345678901237']);

/** Card numbers the double refuses, with Adyen's refusalReasonCode and refusalReason. */
export const DECLINING_CARDS: Record<string, { refusalReasonCode: string; refusalReason: string }> = {
  '4000000000000002': { refusalReasonCode: '2', refusalReason: 'Refused' },
  '4000000000009995': { refusalReasonCode: '12', refusalReason: 'Not enough balance' },
  '4000000000000069': { refusalReasonCode: '6', refusalReason: 'Expired Card' },
  '4000000000000127': { refusalReasonCode: '24', refusalReason: 'CVC Declined' },
};

interface Published {
  components: { schemas: Record<string, unknown>; examples: Record<string, { value: Record<string, unknown> }> };
}

/** The published Checkout description, or null (with a printed line) when the peers folder is absent. */
export function adyenDescriptions(skipping: string): { checkout: Published; webhooks: Published } | null {
  const dir = peer('adyen', skipping);
  if (!dir) return null;
  const read = (file: string) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Published;
  return { checkout: read('CheckoutService-v71.json'), webhooks: read('Webhooks-v1.json') };
}

const pspReference = () =>
  randomBytes(12)
    .toString('base64url')
    .replace(/[^A-Z0-9]/gi, '')
    .toUpperCase()
    .padEnd(16, 'X')
    .slice(0, 16);

export function startAdyenDouble(checkout: Published, account = ADYEN_TEST_ACCOUNT): AdyenDouble {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ $id: 'checkout', components: checkout.components });
  const schema = (name: string) => ajv.getSchema(`checkout#/components/schemas/${name}`) as ValidateFunction;
  const example = (name: string) => structuredClone(checkout.components.examples[name]!.value);

  const requests: AdyenDouble['requests'] = [];
  const invalid: string[] = [];
  const answered = new Map<string, { status: number; body: unknown }>();
  const holds = new Map<string, { gate: Promise<void>; arrived: () => void }>();
  /** Payments at the bank, by pspReference, and the redirect results the bank gave back. */
  const atTheBank = new Map<string, { merchantReference: unknown }>();
  const redirectResults = new Map<string, { pspReference: string; authenticated: boolean }>();
  let networkDown = false;

  /** One endpoint: checked, kept, answered once per Idempotency-Key. */
  const endpoint = (
    route: string,
    requestSchema: string,
    answer: (body: Record<string, unknown>, params: Record<string, string>) => { status: number; body: unknown },
  ) =>
    http.post(`${account.checkoutUrl}${route}`, async ({ request, params }) => {
      if (networkDown) return HttpResponse.error();
      const url = new URL(request.url);
      const body = (await request.json()) as Record<string, unknown>;
      const headers = Object.fromEntries(request.headers.entries());
      const received: AdyenDouble['requests'][number] = { path: url.pathname, headers, body, answer: undefined };
      requests.push(received);
      const result = decide(url.pathname, headers, body, params as Record<string, string>, requestSchema, answer);
      received.answer = result.body;
      const hold = [...holds.entries()].find(([suffix]) => url.pathname.endsWith(suffix));
      if (hold) {
        holds.delete(hold[0]);
        hold[1].arrived();
        await hold[1].gate;
      }
      return HttpResponse.json(result.body as Record<string, unknown>, { status: result.status });
    });

  /** Adyen's answer to one request: refused as Adyen refuses it, or the first answer its Idempotency-Key got, or a new one. */
  function decide(
    pathname: string,
    headers: Record<string, string>,
    body: Record<string, unknown>,
    params: Record<string, string>,
    requestSchema: string,
    answer: (body: Record<string, unknown>, params: Record<string, string>) => { status: number; body: unknown },
  ): { status: number; body: unknown } {
    if (headers['x-api-key'] !== account.apiKey) return { status: 401, body: example('generic-401') };
    const validate = schema(requestSchema);
    if (!validate(body)) {
      invalid.push(`${pathname} breaks ${requestSchema}: ${ajv.errorsText(validate.errors)}`);
      return { status: 400, body: example('generic-400') };
    }
    const key = headers['idempotency-key'];
    if (!key || key.length > 64) invalid.push(`${pathname} without a valid Idempotency-Key`);
    const replay = key ? answered.get(`${pathname} ${key}`) : undefined;
    const result = replay ?? answer(body, params);
    if (key) answered.set(`${pathname} ${key}`, result);
    return result;
  }

  const modification = (kind: string, exampleName: string): HttpHandler =>
    endpoint(
      `/payments/:paymentPspReference/${kind}`,
      `Payment${kind === 'captures' ? 'Capture' : kind === 'refunds' ? 'Refund' : kind === 'cancels' ? 'Cancel' : 'Reversal'}Request`,
      (body, params) => {
        const answer = example(exampleName);
        Object.assign(answer, { merchantAccount: body.merchantAccount, paymentPspReference: params.paymentPspReference, pspReference: pspReference() });
        if ('reference' in body) answer.reference = body.reference;
        else delete answer.reference;
        if ('amount' in answer) answer.amount = body.amount;
        return { status: 201, body: answer };
      },
    );

  const handlers: HttpHandler[] = [
    endpoint('/payments', 'PaymentRequest', (body) => {
      const method = body.paymentMethod as { number?: string };
      if (CHALLENGE_CARDS.has(method.number ?? '')) {
        const answer = example('post-payments-card-3d-secure-redirect-200');
        answer.pspReference = pspReference();
        (answer.additionalData as Record<string, string>).merchantReference = String(body.reference);
        (answer.action as { url: string }).url = `https://checkoutshopper-test.adyen.com/checkoutshopper/threeDS/redirect?payment=${answer.pspReference}`;
        atTheBank.set(answer.pspReference as string, { merchantReference: body.reference });
        return { status: 200, body: answer };
      }
      const declined = DECLINING_CARDS[method.number ?? ''];
      const answer = example('post-payments-card-direct-200');
      answer.pspReference = pspReference();
      answer.merchantReference = body.reference;
      if (declined) {
        Object.assign(answer, { resultCode: 'Refused', ...declined });
        (answer.additionalData as Record<string, string>).refusalReasonRaw = declined.refusalReason.toUpperCase();
        delete (answer.additionalData as Record<string, string>).authCode;
      }
      return { status: 200, body: answer };
    }),
    endpoint('/payments/details', 'PaymentDetailsRequest', (body) => {
      const decided = redirectResults.get(String((body.details as { redirectResult?: unknown }).redirectResult));
      if (!decided) return { status: 422, body: example('generic-422') };
      const answer = example('post-payments-details-00.redirect-200');
      Object.assign(answer, { pspReference: decided.pspReference, merchantReference: atTheBank.get(decided.pspReference)?.merchantReference });
      if (!decided.authenticated) Object.assign(answer, { resultCode: 'Refused', refusalReason: '3D Not Authenticated', refusalReasonCode: '11' });
      return { status: 200, body: answer };
    }),
    modification('captures', 'post-payments-paymentPspReference-captures-capture-201'),
    modification('refunds', 'post-payments-paymentPspReference-refunds-refund-201'),
    modification('cancels', 'post-payments-paymentPspReference-cancels-cancel-with-psp-reference-201'),
    modification('reversals', 'post-payments-paymentPspReference-reversals-reversal-201'),
    endpoint('/cancels', 'StandalonePaymentCancelRequest', (body) => {
      const answer = example('post-cancels-cancel-with-own-reference-201');
      Object.assign(answer, {
        merchantAccount: body.merchantAccount,
        paymentReference: body.paymentReference,
        reference: body.reference,
        pspReference: pspReference(),
      });
      return { status: 201, body: answer };
    }),
  ];

  const server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: 'bypass' });
  return {
    server,
    requests,
    invalid,
    holdAnswers(pathSuffix) {
      let release!: () => void;
      let arrived!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const arrival = new Promise<void>((resolve) => (arrived = resolve));
      holds.set(pathSuffix, { gate, arrived });
      return { release, arrived: arrival };
    },
    failNetwork(on) {
      networkDown = on;
    },
    bankAnswers(paymentPspReference, authenticated) {
      if (!atTheBank.has(paymentPspReference)) throw new Error(`no payment ${paymentPspReference} at the bank`);
      const redirectResult = `${randomBytes(24).toString('base64url')}!`;
      redirectResults.set(redirectResult, { pspReference: paymentPspReference, authenticated });
      return redirectResult;
    },
    close: () => server.close(),
  };
}

/**
 * A notification as Adyen sends it: the published example of `eventCode` from Webhooks-v1.json, with the given
 * fields, signed with `hmacKey` the way Adyen signs (the library's HmacValidator computes the same signature).
 */
export function adyenNotification(
  webhooks: Published,
  eventCode: 'CAPTURE' | 'CAPTURE_FAILED' | 'CANCELLATION' | 'REFUND' | 'REFUND_FAILED' | 'AUTHORISATION',
  fields: {
    pspReference: string;
    originalReference?: string;
    merchantReference?: string;
    amount?: { value: number; currency: string };
    success?: 'true' | 'false';
    reason?: string;
  },
  hmacKey = ADYEN_TEST_HMAC_KEY,
  merchantAccountCode = ADYEN_TEST_ACCOUNT.merchantAccount,
): { live: string; notificationItems: { NotificationRequestItem: Record<string, unknown> }[] } {
  const examples = webhooks.components.examples;
  const name = Object.keys(examples).find((k) => k.toLowerCase() === `post-${eventCode.toLowerCase()}-${eventCode.toLowerCase()}`) ?? eventCode.toLowerCase();
  const published = (examples[name] ?? examples[eventCode.toLowerCase()])!.value as {
    live: string;
    notificationItems: { NotificationRequestItem: Record<string, unknown> }[];
  };
  const example = structuredClone(published);
  const item = example.notificationItems[0]!.NotificationRequestItem;
  Object.assign(item, { merchantAccountCode, ...fields });
  if (fields.originalReference === undefined && eventCode === 'AUTHORISATION') delete item.originalReference;
  const additionalData = { ...((item.additionalData as Record<string, string> | undefined) ?? {}) };
  delete additionalData.hmacSignature;
  item.additionalData = { ...additionalData, hmacSignature: new adyen.hmacValidator().calculateHmac(item as never, hmacKey) };
  return example;
}

/** A modification Adyen took (a capture, refund or cancel answered `received`): what its webhook names. */
export interface AdyenModification {
  kind: 'captures' | 'refunds' | 'cancels';
  pspReference: string;
  paymentPspReference: string;
  /** The transaction number the connector sent as the modification's reference ('' without one). */
  merchantReference: string;
  amount: { value: number; currency: string };
}

/** The modifications Adyen took in `double.requests` from index `from` on, each once (a repeated key answers the same). */
export function modificationsSince(double: AdyenDouble, from = 0): AdyenModification[] {
  const found = new Map<string, AdyenModification>();
  for (const request of double.requests.slice(from)) {
    const kind = /\/(captures|refunds|cancels)$/.exec(request.path)?.[1] as AdyenModification['kind'] | undefined;
    const answer = request.answer as { pspReference?: string; paymentPspReference?: string; reference?: string; amount?: { value: number; currency: string } };
    if (!kind || !answer?.pspReference || found.has(answer.pspReference)) continue;
    found.set(answer.pspReference, {
      kind,
      pspReference: answer.pspReference,
      paymentPspReference: answer.paymentPspReference ?? '',
      merchantReference: answer.reference ?? '',
      amount: answer.amount ?? { value: 0, currency: 'USD' },
    });
  }
  return [...found.values()];
}

/** The event that tells a modification's outcome, as Adyen names it. */
export function adyenOutcomeEvent(
  kind: AdyenModification['kind'],
  success: boolean,
): 'CAPTURE' | 'CAPTURE_FAILED' | 'REFUND' | 'REFUND_FAILED' | 'CANCELLATION' {
  if (kind === 'cancels') return 'CANCELLATION';
  if (kind === 'captures') return success ? 'CAPTURE' : 'CAPTURE_FAILED';
  return success ? 'REFUND' : 'REFUND_FAILED';
}

/**
 * Tells the service a modification's outcome at its webhook (POST /processors/adyen/webhooks), `times` times as Adyen
 * may, each signed; throws unless every one is answered 200 `[accepted]`.
 */
export async function tellAdyen(
  app: { request(path: string, init: { body: unknown }): Promise<Response> },
  webhooks: Published,
  modification: AdyenModification,
  told: { event: Parameters<typeof adyenNotification>[1]; success: boolean; reason?: string },
  times = 1,
): Promise<void> {
  for (let i = 0; i < times; i++) {
    const notification = adyenNotification(webhooks, told.event, {
      pspReference: modification.pspReference,
      originalReference: modification.paymentPspReference,
      merchantReference: modification.merchantReference,
      amount: modification.amount,
      success: told.success ? 'true' : 'false',
      reason: told.reason ?? (told.success ? '' : 'Refused'),
    });
    const answered = await app.request('/processors/adyen/webhooks', { body: notification });
    const text = await answered.text();
    if (answered.status !== 200 || text !== '[accepted]') throw new Error(`the Adyen webhook answered ${answered.status} ${text}`);
  }
}
