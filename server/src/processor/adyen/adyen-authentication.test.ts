import type { Types } from '@adyen/api-library';
import { describe, expect, it } from 'vitest';
import { adyenThreeDSecure, bankPageOf, cardFromAdditionalData } from './adyen-authentication';

type Action = Types.checkout.PaymentResponse['action'];
const redirect = (fields: Record<string, unknown>) => ({ type: 'redirect', paymentMethodType: 'scheme', ...fields }) as unknown as Action;

describe("the bank's page of an Adyen action", () => {
  it('is a GET redirect to an https page', () => {
    const url = 'https://checkoutshopper-test.adyen.com/checkoutshopper/threeDS/redirect?payment=1';
    expect(bankPageOf(redirect({ method: 'GET', url }))).toBe(url);
    expect(bankPageOf(redirect({ url }))).toBe(url);
  });

  it('is none for a redirect to post, a page not on https, or the native 3-D Secure component', () => {
    expect(bankPageOf(redirect({ method: 'POST', url: 'https://bank.example/acs', data: { PaReq: 'x', MD: 'y' } }))).toBeNull();
    expect(bankPageOf(redirect({ method: 'GET', url: 'http://bank.example/acs' }))).toBeNull();
    expect(bankPageOf({ type: 'threeDS2', subtype: 'fingerprint', token: 't' } as unknown as Action)).toBeNull();
    expect(bankPageOf(undefined)).toBeNull();
  });
});

describe('how an Adyen 3-D Secure went', () => {
  it("reads Adyen's additionalData where the account returns it", () => {
    expect(adyenThreeDSecure({ threeDAuthenticated: 'true', liabilityShift: 'true', eci: '05', threeDSVersion: '2.2.0' })).toEqual({
      authenticated: true,
      flow: 'challenge',
      version: '2.2.0',
      eci: '05',
      liabilityShift: true,
    });
    expect(adyenThreeDSecure({ threeDAuthenticated: 'false', 'threeds2.threeDS2ResponseData.messageVersion': '2.1.0' })).toMatchObject({
      authenticated: false,
      version: '2.1.0',
      liabilityShift: false,
    });
  });

  it('claims no liability shift where Adyen tells nothing', () => {
    expect(adyenThreeDSecure(undefined)).toEqual({ authenticated: true, flow: 'challenge', version: 'unknown', eci: null, liabilityShift: false });
  });

  it("names the card from Adyen's summary when the connector no longer holds it", () => {
    expect(cardFromAdditionalData({ paymentMethod: 'mc', cardSummary: '5454' })).toEqual({ paymentMethodName: 'Mastercard', lastFourDigits: '5454' });
    expect(cardFromAdditionalData(undefined)).toEqual({ paymentMethodName: 'Card', lastFourDigits: null });
  });
});
