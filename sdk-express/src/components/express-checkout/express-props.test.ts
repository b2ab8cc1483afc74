import { expect } from '@open-wc/testing';
import { readAmount, readProps } from './express-props';

const valid = { clientId: 'ck_test', amount: '10.50', currency: 'usd', mode: 'sandbox' };

describe('Express props', () => {
  it("read the spec's props: decimal text to cents, currency upper-cased, manual_capture by default, cssUrl resolved", () => {
    const onPay = () => undefined;
    const read = readProps({ ...valid, logs: true, cssUrl: '/styles/express.css', onPay });
    expect(read.ok).to.equal(true);
    if (!read.ok) return;
    expect(read.settings).to.deep.include({
      clientId: 'ck_test',
      mode: 'sandbox',
      methodType: 'manual_capture',
      currency: 'USD',
      logs: true,
      cssUrl: new URL('/styles/express.css', location.href).href,
    });
    expect(read.settings.amount).to.deep.equal({ ok: true, cents: 1050, text: '10.50' });
    expect(read.settings.handlers.onPay).to.equal(onPay);
  });

  it('refuse amounts that are not decimal text of a positive amount with at most two decimals', () => {
    for (const amount of ['10.005', '-1', 'abc', '0', '0.00', '', '1e3', 10.5, undefined, '10000000000.01']) {
      const read = readAmount(amount);
      expect(read.ok, String(amount)).to.equal(false);
      if (!read.ok) expect(read.error.code).to.equal('invalid_amount');
    }
    expect(readAmount('10')).to.deep.equal({ ok: true, cents: 1000, text: '10.00' });
    expect(readAmount('0.01')).to.deep.equal({ ok: true, cents: 1, text: '0.01' });
  });

  it('name every wrong or missing prop in one config_invalid error, keeping the handlers to report it', () => {
    const onError = () => undefined;
    const read = readProps({
      amount: '1',
      currency: 'GBP',
      mode: 'live',
      methodType: 'sale',
      logs: 'yes',
      cssUrl: 'javascript:alert(1)',
      onShow: 'no',
      colour: 'red',
      onError,
    });
    expect(read.ok).to.equal(false);
    if (read.ok) return;
    expect(read.error.code).to.equal('config_invalid');
    for (const part of [
      'props.colour is not a prop',
      'props.clientId must be',
      'props.currency must be',
      'props.mode must be',
      'props.methodType must be',
      'props.logs must be',
      'props.cssUrl must be',
      'props.onShow must be a function',
    ]) {
      expect(read.error.message).to.contain(part);
    }
    expect(read.handlers.onError).to.equal(onError);
    for (const props of [null, 'ck_test', 42, undefined]) {
      const wrong = readProps(props);
      expect(wrong.ok).to.equal(false);
      if (!wrong.ok) expect(wrong.error.message).to.contain('props must be an object');
    }
  });

  it('a valid config with a bad amount is not a config error: the amount is reported on its own', () => {
    const read = readProps({ ...valid, amount: '10.005' });
    expect(read.ok).to.equal(true);
    if (read.ok) expect(read.settings.amount).to.deep.include({ ok: false });
  });

  it('read appearance and wallets; refuse a theme a wallet does not have, a height outside 40 to 55 px, an unknown wallet', () => {
    const read = readProps({
      ...valid,
      appearance: { buttonTheme: { googlepay: 'white' }, buttonHeight: 55, buttonRadius: 0 },
      wallets: ['googlepay', 'paypal'],
    });
    expect(read.ok).to.equal(true);
    if (read.ok) {
      expect(read.settings.buttons).to.deep.equal({ theme: { paypal: 'gold', applepay: 'black', googlepay: 'white' }, height: 55, radius: 0 });
      expect(read.settings.wallets).to.deep.equal(['googlepay', 'paypal']);
    }
    for (const [appearance, wallets] of [
      [{ buttonTheme: { applepay: 'gold' } }, undefined],
      [{ buttonHeight: 39 }, undefined],
      [{ buttonHeight: 56 }, undefined],
      [{ buttonRadius: -1 }, undefined],
      [{ buttonColour: 'red' }, undefined],
      [undefined, []],
      [undefined, ['card']],
    ] as const) {
      const wrong = readProps({ ...valid, appearance, wallets });
      expect(wrong.ok, JSON.stringify({ appearance, wallets })).to.equal(false);
      if (!wrong.ok) expect(wrong.error.message).to.match(/props\.(appearance|wallets) must be/);
    }
  });
});
