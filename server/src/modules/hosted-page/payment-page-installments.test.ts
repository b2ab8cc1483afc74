import type { PaymentLinkState } from '@svc/protocol';
import { LANGUAGES } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { CATALOGUES } from '../../i18n';
import { renderPaymentPage } from './payment-page';

/** The hosted page's number of payments is named as the widgets name theirs: the catalogue's `card.installments.label`. */
const state: PaymentLinkState = {
  TransactionNumber: 'T-INSTALMENTS',
  amount: 300,
  amountCents: 30_000,
  currency: 'ILS',
  businessName: 'Corner Bakery',
  products: [],
  methodType: 'sale',
  status: 1,
  statusName: 'Pending',
  timeoutDate: null,
  payable: true,
  lastFourDigits: null,
  confirmationNumber: null,
  refundedCents: 0,
  maxInstallments: 3,
};

const labelOf = (page: string) => /<label for="installments">([^<]*)<\/label>/.exec(page)?.[1];

describe('the hosted page names the number of payments as the widgets do', () => {
  for (const language of LANGUAGES) {
    it(`${language}: card.installments.label`, () => {
      const page = renderPaymentPage({ linkId: 'lnk_1', state, sequence: 1, now: new Date('2026-01-01T00:00:00Z'), language });
      expect(labelOf(page)).toBe(CATALOGUES[language]['card.installments.label']);
      expect(page).toContain('<select id="installments" name="installments"><option value="1" selected>1</option>');
    });
  }

  it('offers no number of payments when the payment may not be split', () => {
    const page = renderPaymentPage({ linkId: 'lnk_1', state: { ...state, maxInstallments: 1 }, sequence: 1, now: new Date('2026-01-01T00:00:00Z') });
    expect(labelOf(page)).toBeUndefined();
  });
});
