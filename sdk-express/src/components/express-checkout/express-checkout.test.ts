import { expect } from '@open-wc/testing';
import { calls, http, HttpResponse, resetApiMock, startApiMock, worker } from '@svc/sdk-core/testing/api-mock';
import { resetWarnings } from '@svc/sdk-core/shared';
import { WALLET_METHODS } from '@svc/protocol/light';
import { button, buttons, mount, mountReady, NAMES, press, recordingProps, sheetButton, sheetOpen, waitFor } from '../../../test/express-helpers';
import { SvcEcomSdkExpress } from './express-checkout';

const sessionCalls = () => calls.filter((call) => call.url.endsWith('/sdk/sessions'));
const paymentCalls = () => calls.filter((call) => call.url.endsWith('/payments'));
const allHidden = (element: SvcEcomSdkExpress) =>
  buttons(element).every((candidate) => candidate.hidden && candidate.disabled && candidate.dataset['canPay'] === 'false');

describe('<svc-ecom-sdk-express>', () => {
  before(() => startApiMock());
  afterEach(() => {
    document.querySelectorAll('svc-ecom-sdk-express, svc-express-late').forEach((node) => node.remove());
    resetApiMock();
    resetWarnings();
  });

  describe('appearance and the choice of wallets', () => {
    it('props.wallets shows only the wallets chosen; onReady says the others are not offered', async () => {
      const { element, seen } = await mountReady({ wallets: ['applepay'] });
      expect(
        buttons(element)
          .filter((candidate) => !candidate.hidden)
          .map((candidate) => candidate.getAttribute('part')),
      ).to.deep.equal(['applepay']);
      expect(seen.ready[0]).to.deep.equal({
        paypal: { canPay: false, reason: 'method_not_offered' },
        applepay: { canPay: true },
        googlepay: { canPay: false, reason: 'method_not_offered' },
      });
    });

    it("each button shows its wallet's mark (not a letter) in the theme chosen, at the height and radius chosen", async () => {
      const { element } = await mountReady({ appearance: { buttonTheme: { paypal: 'blue', applepay: 'white' }, buttonHeight: 40, buttonRadius: 20 } });
      for (const method of WALLET_METHODS) {
        const logo = button(element, method).querySelector('.payment-logo')!;
        expect(logo.localName, `${method}'s mark`).to.equal('svg');
        expect(logo.querySelector('path')!.getAttribute('d')!.length).to.be.greaterThan(100);
        expect(logo.textContent).to.equal('');
      }
      expect(buttons(element).map((candidate) => candidate.dataset['theme'])).to.deep.equal(['blue', 'white', 'black']);
      const paypal = getComputedStyle(button(element, 'paypal'));
      expect([paypal.backgroundColor, paypal.color]).to.deep.equal(['rgb(0, 112, 186)', 'rgb(255, 255, 255)']);
      expect(getComputedStyle(button(element, 'applepay')).backgroundColor).to.equal('rgb(255, 255, 255)');
      expect(button(element, 'googlepay').getBoundingClientRect().height).to.equal(40);
      expect(getComputedStyle(button(element, 'googlepay')).borderTopLeftRadius).to.equal('20px');
    });

    it('the default: gold PayPal, black Apple Pay and Google Pay, 48 px high; the names QA relies on', async () => {
      const { element } = await mountReady();
      expect(buttons(element).map((candidate) => candidate.dataset['theme'])).to.deep.equal(['gold', 'black', 'black']);
      expect(getComputedStyle(button(element, 'paypal')).backgroundColor).to.equal('rgb(255, 196, 57)');
      expect(button(element, 'paypal').getBoundingClientRect().height).to.equal(48);
      for (const method of WALLET_METHODS) expect(button(element, method).textContent!.replace(/\s+/g, ' ').trim()).to.equal(`Pay with ${NAMES[method]}`);
    });
  });

  describe('props and onReady', () => {
    it('starts the session before onReady, which fires once with every wallet able to pay in sandbox', async () => {
      const { element, seen } = await mountReady();
      expect(sessionCalls().map((call) => call.body)).to.deep.equal([{ clientId: 'ck_test', methodType: 'manual_capture', mode: 'sandbox' }]);
      expect(seen.ready).to.deep.equal([{ paypal: { canPay: true }, applepay: { canPay: true }, googlepay: { canPay: true } }]);
      // Changing the amount later neither starts a new session nor fires onReady again.
      element.props = { ...element.props, amount: '12.00' };
      await element.updateComplete;
      expect(sessionCalls()).to.have.length(1);
      expect(seen.ready).to.have.length(1);
      expect(seen.error).to.deep.equal([]);
    });

    it('keeps props set before the element is defined, and upgrades with them', async () => {
      const { props, seen } = recordingProps({ methodType: 'authorize' });
      const early = document.createElement('svc-express-late') as HTMLElement & { props?: unknown; apiBase?: string };
      early.props = props;
      document.body.append(early);
      customElements.define('svc-express-late', class extends SvcEcomSdkExpress {});
      expect(early).to.be.instanceOf(SvcEcomSdkExpress);
      expect(early.props).to.equal(props);
      await waitFor(() => seen.ready.length === 1, 'onReady after the upgrade');
      expect(sessionCalls()[0]!.body).to.deep.include({ methodType: 'authorize' });
    });

    it('starts a new session when clientId, mode or methodType change', async () => {
      const { element } = await mountReady();
      element.props = { ...element.props, methodType: 'tokenize' };
      await waitFor(() => sessionCalls().length === 2, 'a second session');
      expect(sessionCalls()[1]!.body).to.deep.include({ methodType: 'tokenize' });
    });

    it('dispatches svc-ready, svc-show, svc-pay and svc-error beside the handlers, bubbling out of the shadow root', async () => {
      const { props } = recordingProps();
      const seen: string[] = [];
      const listener = (event: Event) => seen.push(event.type);
      for (const type of ['svc-ready', 'svc-show', 'svc-pay', 'svc-error']) document.addEventListener(type, listener);
      try {
        const element = mount(props);
        await waitFor(() => seen.includes('svc-ready'), 'svc-ready');
        await element.updateComplete;
        await press(element, 'paypal');
        await sheetOpen(element);
        sheetButton(element, 'Pay').click();
        await waitFor(() => seen.includes('svc-pay'), 'svc-pay');
        element.props = { ...props, amount: 'abc' };
        await waitFor(() => seen.includes('svc-error'), 'svc-error');
        expect(seen).to.deep.equal(['svc-ready', 'svc-show', 'svc-pay', 'svc-error']);
      } finally {
        for (const type of ['svc-ready', 'svc-show', 'svc-pay', 'svc-error']) document.removeEventListener(type, listener);
      }
    });
  });

  describe('buttons', () => {
    it('are three payment-btn buttons with a part per wallet, a logo, a label and the names QA relies on', async () => {
      const { element } = await mountReady();
      expect(buttons(element).map((candidate) => candidate.getAttribute('part'))).to.deep.equal([...WALLET_METHODS]);
      for (const method of WALLET_METHODS) {
        const candidate = button(element, method);
        expect(candidate.type).to.equal('button');
        // The accessible name is the label's text ("Pay with " visually hidden); the logo is hidden from it.
        expect(candidate.hasAttribute('aria-label')).to.equal(false);
        expect(candidate.querySelector('.payment-logo')?.getAttribute('aria-hidden')).to.equal('true');
        expect(candidate.querySelector('.payment-label')?.textContent).to.equal(`Pay with ${NAMES[method]}`);
        expect(candidate.querySelector('.payment-label .visually-hidden')?.textContent).to.equal('Pay with ');
        expect(candidate.dataset['canPay']).to.equal('true');
        expect(candidate.hidden).to.equal(false);
        expect(candidate.disabled).to.equal(false);
        expect(candidate.hasAttribute('data-processing')).to.equal(false);
        expect(candidate.hasAttribute('data-other-processing')).to.equal(false);
      }
    });

    it('mark the pressed one data-processing and aria-busy, the others data-other-processing and disabled, then go idle', async () => {
      const { element, seen } = await mountReady();
      await press(element, 'applepay');
      await sheetOpen(element);
      await element.updateComplete;
      const pressed = button(element, 'applepay');
      expect(pressed.hasAttribute('data-processing')).to.equal(true);
      expect(pressed.getAttribute('aria-busy')).to.equal('true');
      expect(pressed.disabled).to.equal(false);
      for (const other of ['paypal', 'googlepay'] as const) {
        expect(button(element, other).hasAttribute('data-other-processing')).to.equal(true);
        expect(button(element, other).disabled).to.equal(true);
        expect(button(element, other).hasAttribute('data-processing')).to.equal(false);
      }
      expect(seen.show).to.deep.equal([{ method: 'applepay' }]);
      sheetButton(element, 'Pay').click();
      await waitFor(() => seen.pay.length === 1, 'onPay');
      await element.updateComplete;
      for (const candidate of buttons(element)) {
        expect(candidate.hasAttribute('data-processing') || candidate.hasAttribute('data-other-processing') || candidate.hasAttribute('aria-busy')).to.equal(
          false,
        );
        expect(candidate.disabled).to.equal(false);
      }
    });
  });

  describe('the sandbox sheet', () => {
    it('Pay sends the payment first, then draws the sheet busy until it is answered', async () => {
      const { element, seen } = await mountReady();
      await press(element, 'paypal');
      await sheetOpen(element);
      let release = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      worker.use(
        http.post('*/sdk/sessions/:sessionId/payments', async () => {
          await gate;
          return undefined; // on to the next handler
        }),
      );
      const { fetch } = window;
      const busyWhenSent: boolean[] = [];
      window.fetch = (input, init) => {
        if (String(input).endsWith('/payments')) busyWhenSent.push(sheetButton(element, 'Pay').disabled);
        return fetch(input, init);
      };
      try {
        sheetButton(element, 'Pay').click();
        await waitFor(() => busyWhenSent.length === 1, 'the payment request');
        await element.updateComplete;
        expect(busyWhenSent, 'sent before the sheet was drawn busy').to.deep.equal([false]);
        expect(sheetButton(element, 'Pay').disabled, 'busy while the payment runs').to.equal(true);
        expect(sheetButton(element, 'Pay').getAttribute('aria-busy')).to.equal('true');
      } finally {
        window.fetch = fetch;
      }
      release();
      await waitFor(() => seen.pay.length === 1, 'onPay');
      expect(paymentCalls()).to.have.length(1);
    });
  });

  describe('before the session answered', () => {
    /** Holds `POST /sdk/sessions` until `release()`, then lets the mock's own handler answer it (or answers `failure`). */
    function holdSession(failure?: () => Response): { release: () => void } {
      let release = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      worker.use(
        http.post('*/sdk/sessions', async () => {
          await gate;
          return failure?.(); // undefined: on to the next handler
        }),
      );
      return { release };
    }

    it('the buttons show enabled at once, while the session is still loading; onReady waits for it', async () => {
      const { release } = holdSession();
      const { props, seen } = recordingProps();
      const element = mount(props);
      await waitFor(() => button(element, 'paypal')?.dataset['canPay'] === 'true', 'the buttons');
      expect(buttons(element).every((candidate) => !candidate.hidden && !candidate.disabled)).to.equal(true);
      expect(buttons(element).map((candidate) => candidate.dataset['canPay'])).to.deep.equal(['true', 'true', 'true']);
      expect(seen.ready).to.deep.equal([]);
      release();
      await waitFor(() => seen.ready.length === 1, 'onReady');
      expect(seen.ready[0]).to.deep.equal({ paypal: { canPay: true }, applepay: { canPay: true }, googlepay: { canPay: true } });
      expect(sessionCalls()).to.have.length(1);
    });

    it('a click opens the sheet at once; Pay waits for the session, then pays once with it', async () => {
      const { release } = holdSession();
      const { props, seen } = recordingProps();
      const element = mount(props);
      await waitFor(() => button(element, 'googlepay')?.hidden === false, 'the buttons');
      await press(element, 'googlepay');
      await sheetOpen(element);
      expect(seen.show).to.deep.equal([{ method: 'googlepay' }]);
      sheetButton(element, 'Pay').click();
      await waitFor(() => sheetButton(element, 'Pay').disabled, 'the sheet busy while the session loads');
      expect(paymentCalls()).to.have.length(0);
      expect(button(element, 'googlepay').hasAttribute('data-processing')).to.equal(true);
      release();
      await waitFor(() => seen.pay.length === 1, 'onPay');
      expect(paymentCalls()).to.have.length(1);
      expect(paymentCalls()[0]!.authorization).to.match(/^Bearer /);
      expect(seen.pay[0]!.method).to.equal('googlepay');
      expect(seen.error).to.deep.equal([]);
    });

    for (const paid of [false, true]) {
      it(`a session that fails meanwhile (${paid ? 'Pay pressed' : 'the sheet open'}): its error once, the sheet closed, no payment, the buttons not left paying`, async () => {
        const { release } = holdSession(() => HttpResponse.error());
        const { props, seen } = recordingProps();
        const element = mount(props);
        await waitFor(() => button(element, 'paypal')?.hidden === false, 'the buttons');
        await press(element, 'paypal');
        const sheet = await sheetOpen(element);
        if (paid) sheetButton(element, 'Pay').click();
        release();
        await waitFor(() => seen.error.length === 1, 'onError');
        // The payment's own end (where a cancellation would be reported) clears the pressed button.
        await waitFor(() => !button(element, 'paypal').hasAttribute('data-processing'), 'the button idle');
        await element.updateComplete;
        expect(seen.error.map((error) => error.code)).to.deep.equal(['network_error']);
        expect(sheet.open).to.equal(false);
        expect(paymentCalls()).to.have.length(0);
        expect(seen.pay).to.deep.equal([]);
        for (const candidate of buttons(element)) {
          expect(candidate.hasAttribute('data-processing') || candidate.hasAttribute('aria-busy')).to.equal(false);
          expect(candidate.hidden).to.equal(true);
        }
      });
    }
  });

  describe('bad input reaches onError with a code, and nothing throws', () => {
    for (const amount of ['10.005', '-1', 'abc']) {
      it(`amount "${amount}": invalid_amount, no button enabled`, async () => {
        const { element, seen } = await mountReady({ amount });
        expect(seen.error.map((error) => error.code)).to.deep.equal(['invalid_amount']);
        expect(seen.error[0]!.message).to.contain(`"${amount}"`);
        expect(seen.ready[0]).to.deep.equal({
          paypal: { canPay: false, reason: 'invalid_amount' },
          applepay: { canPay: false, reason: 'invalid_amount' },
          googlepay: { canPay: false, reason: 'invalid_amount' },
        });
        expect(allHidden(element)).to.equal(true);
        // A fixed amount brings the buttons back without a new session.
        element.props = { ...element.props, amount: '10.00' };
        await element.updateComplete;
        expect(buttons(element).every((candidate) => !candidate.hidden && candidate.dataset['canPay'] === 'true')).to.equal(true);
        expect(sessionCalls()).to.have.length(1);
      });
    }

    it('missing or wrong props: config_invalid naming them, no session, no button', async () => {
      const { props, seen } = recordingProps();
      const element = mount({ ...props, clientId: undefined, mode: 'live', onShow: 'nope' });
      await waitFor(() => seen.error.length === 1, 'onError');
      expect(seen.error[0]!.code).to.equal('config_invalid');
      expect(seen.error[0]!.message).to.contain('props.clientId').and.contain('props.mode').and.contain('props.onShow');
      expect(seen.ready[0]!.paypal).to.deep.equal({ canPay: false, reason: 'config_invalid' });
      await element.updateComplete;
      expect(allHidden(element)).to.equal(true);
      expect(sessionCalls()).to.have.length(0);
    });

    it('props that are not an object: a console warning naming the fix (no handler to call)', async () => {
      const warnings: unknown[][] = [];
      const original = console.warn;
      console.warn = (...args: unknown[]) => warnings.push(args);
      try {
        const element = mount('ck_test');
        await element.updateComplete;
        expect(warnings.map((args) => String(args[0])).join('\n'))
          .to.contain('config_invalid')
          .and.contain('props must be an object');
      } finally {
        console.warn = original;
      }
    });

    it('an unknown client ID: client_id_unknown, buttons hidden', async () => {
      const { element, seen } = await mountReady({ clientId: 'ck_unknown' });
      expect(seen.error.map((error) => error.code)).to.deep.equal(['client_id_unknown']);
      expect(seen.ready[0]!.googlepay).to.deep.equal({ canPay: false, reason: 'client_id_unknown' });
      expect(allHidden(element)).to.equal(true);
    });

    it('an origin the client ID does not allow: origin_not_allowed', async () => {
      const { seen } = await mountReady({ clientId: 'ck_forbidden' });
      expect(seen.error.map((error) => error.code)).to.deep.equal(['origin_not_allowed']);
      expect(seen.error[0]!.message).to.contain(location.origin);
    });

    it('the network down when starting: network_error, buttons hidden', async () => {
      worker.use(http.post('*/sdk/sessions', () => HttpResponse.error()));
      const { element, seen } = await mountReady();
      expect(seen.error.map((error) => error.code)).to.deep.equal(['network_error']);
      expect(allHidden(element)).to.equal(true);
      // Back online, setting the props again retries the session.
      worker.resetHandlers();
      element.props = { ...element.props };
      await waitFor(() => sessionCalls().length === 1, 'the retried session');
      await waitFor(() => button(element, 'paypal').dataset['canPay'] === 'true', 'the buttons');
      expect(seen.ready).to.have.length(1);
    });

    it('the network down when paying: network_error, the sheet closes and the buttons are idle again', async () => {
      const { element, seen } = await mountReady();
      worker.use(http.post('*/sdk/sessions/:sessionId/payments', () => HttpResponse.error()));
      await press(element, 'googlepay');
      const sheet = await sheetOpen(element);
      sheetButton(element, 'Pay').click();
      await waitFor(() => seen.error.length === 1, 'onError');
      expect(seen.error[0]!.code).to.equal('network_error');
      expect(seen.pay).to.deep.equal([]);
      await element.updateComplete;
      expect(sheet.open).to.equal(false);
      expect(buttons(element).every((candidate) => !candidate.disabled && !candidate.hasAttribute('data-processing'))).to.equal(true);
    });

    it('a handler that throws is reported on the console and the component carries on', async () => {
      const errors: unknown[][] = [];
      const original = console.error;
      console.error = (...args: unknown[]) => errors.push(args);
      try {
        const { element, seen } = await mountReady({
          onShow: () => {
            throw new Error('merchant bug');
          },
        });
        await press(element, 'paypal');
        await sheetOpen(element);
        expect(String(errors[0]?.[0])).to.contain('props.onShow threw');
        sheetButton(element, 'Pay').click();
        await waitFor(() => seen.pay.length === 1, 'onPay after a throwing onShow');
      } finally {
        console.error = original;
      }
    });
  });

  describe('cssUrl', () => {
    it('is loaded into the shadow root; the parts and classes are the styling API', async () => {
      const { element, seen } = await mountReady({ cssUrl: '/sdk-express/test/fixtures/merchant-buttons.css' });
      const link = element.shadowRoot!.querySelector<HTMLLinkElement>('link[rel=stylesheet]')!;
      await waitFor(() => link.sheet, 'the style sheet');
      expect(getComputedStyle(button(element, 'paypal')).letterSpacing).to.equal('3px');
      expect(getComputedStyle(button(element, 'googlepay').querySelector('.payment-label')!).textTransform).to.equal('uppercase');
      expect(document.head.querySelector('link[href*="merchant-buttons"]')).to.equal(null);
      expect(seen.error).to.deep.equal([]);
    });

    it('that fails to load: css_load_failed once, and the buttons still pay', async () => {
      const { element, seen } = await mountReady({ cssUrl: '/sdk-express/test/fixtures/no-such-sheet.css' });
      await waitFor(() => seen.error.length === 1, 'onError');
      expect(seen.error[0]!.code).to.equal('css_load_failed');
      expect(seen.error[0]!.message).to.contain('no-such-sheet.css');
      await press(element, 'paypal');
      await sheetOpen(element);
      sheetButton(element, 'Pay').click();
      await waitFor(() => seen.pay.length === 1, 'onPay');
      expect(seen.error).to.have.length(1);
    });
  });

  describe('logs', () => {
    it('logs: true prints the steps, never billing or shipping values; logs off prints nothing', async () => {
      const lines: string[] = [];
      const original = console.debug;
      console.debug = (...args: unknown[]) => lines.push(JSON.stringify(args));
      try {
        const { element, seen } = await mountReady({ logs: true });
        await press(element, 'paypal');
        await sheetOpen(element);
        sheetButton(element, 'Pay').click();
        await waitFor(() => seen.pay.length === 1, 'onPay');
        const log = lines.join('\n');
        expect(log).to.contain('svc-ecom-sdk-express').and.contain('paid').and.contain(seen.pay[0]!.transactionNumber);
        for (const value of Object.values(seen.pay[0]!.billingInformation).filter((text) => text.length > 2)) expect(log).not.to.contain(value);
        lines.length = 0;
        element.remove();
        await mountReady();
        expect(lines).to.deep.equal([]);
      } finally {
        console.debug = original;
      }
    });
  });
});
