import type { Transaction } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/harness';
import { consumerPays } from '../../test/merchant-client';

/** What the hosted page says around an amount and an outcome (docs/integrating.md#the-hosted-payment-page). */
const t = useTestApp({ merchantName: 'Corner Bakery' });

const pathOf = (transaction: Pick<Transaction, 'transactionPage'>) => new URL(transaction.transactionPage.qrURL).pathname;
const html = async (path: string) => (await t.app.request(path)).text();
const payButton = (page: string) => /<button type="button" id="pay-button" disabled>([^<]*)<\/button>/.exec(page)?.[1];

describe('the hosted page writes an amount one way', () => {
  it('the pay button and the order write the number as the heading does (grouped), with the currency’s code', async () => {
    const created = await t.client.init({ amount: 1234.5, currency: 'ILS', products: [{ name: 'Wedding cake', quantity: 1, amount: 1234.5 }] });
    const page = await html(pathOf(created.body));
    expect(page).toContain('<p class="amount">₪1,234.50</p>');
    expect(payButton(page)).toBe('Pay 1,234.50 ILS');
    expect(page).toContain('<td class="num">1,234.50</td>');
    expect(payButton(await html(`${pathOf(created.body)}?lang=ru`))).toBe('Оплатить 1\u00a0234,50 ILS');
  });

  it('in Arabic, a US dollar amount keeps its sign whole (isolated left to right)', async () => {
    const created = await t.client.init({ amount: 1234.5, currency: 'USD' });
    expect(await html(`${pathOf(created.body)}?lang=ar`)).toContain('<p class="amount">\u200f1,234.50\u00a0\u2066US$\u2069</p>');
  });
});

describe('the hosted page names the outcome it shows', () => {
  it('an authorization is paid to nobody yet: "Payment to" above "the amount is reserved"', async () => {
    const created = await t.client.init({ amount: 4, currency: 'USD', methodType: 'authorize' });
    expect((await consumerPays(t.app, created.body)).status).toBe(200);
    const page = await html(pathOf(created.body));
    expect(page).toContain('<dt>Payment to</dt><dd>Corner Bakery</dd>');
    expect(page).not.toContain('Paid to');
    expect(page).toContain('The amount is reserved on your payment method');
    const sale = await t.client.init({ amount: 4, currency: 'USD' });
    expect((await consumerPays(t.app, sale.body)).status).toBe(200);
    expect(await html(pathOf(sale.body))).toContain('<dt>Paid to</dt><dd>Corner Bakery</dd>');
  });
});
