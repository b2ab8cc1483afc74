/** The built dist/sdk.js, loaded the way a merchant page loads it, end to end against the mocked API. */
import { expect } from '@open-wc/testing';
import type { SdkError, Transaction } from '@svc/protocol';
import type { ServiceFrontEndSDK } from '@svc/sdk-core/host';
import { calls, startApiMock } from '@svc/sdk-core/testing/api-mock';
import { waitFor } from '@svc/sdk-core/testing/helpers';

function loadScript(attributes: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    for (const [name, value] of Object.entries(attributes)) script.setAttribute(name, value);
    script.onload = () => resolve();
    script.onerror = () => reject(new Error('script failed'));
    document.head.append(script);
  });
}

describe('dist/sdk.js', () => {
  let sdk: ServiceFrontEndSDK;
  before(async () => {
    await startApiMock();
    await loadScript({ src: `${location.origin}/sdk/elements/1.1.1/sdk.js` });
    sdk = (window as Window & { ServiceFrontEndSDK?: ServiceFrontEndSDK }).ServiceFrontEndSDK!;
  });

  it('installs ServiceFrontEndSDK and defines the element', () => {
    expect(sdk.version).to.equal('1.1.1');
    expect(customElements.get('svc-ecom-sdk-elements')).to.exist;
  });

  it('pays by card with the service found from its own script URL', async () => {
    const container = document.createElement('div');
    container.id = 'service-front-end';
    document.body.append(container);
    const errors: SdkError[] = [];
    let cardValid = false;
    sdk.error((error) => errors.push(error));
    sdk.paymentMethodValidationStatus((status) => (cardValid = status.isValid));
    sdk.config({ mode: 'sandbox', clientId: 'ck_test' });
    sdk.init();
    const widget = container.querySelector('svc-ecom-sdk-elements')!;
    const iframe = await waitFor(
      () => widget.shadowRoot?.querySelector('iframe')?.dataset['ready'] === 'true' && widget.shadowRoot!.querySelector('iframe'),
      'the frame handshake',
    );
    expect(new URL(iframe.src).origin).to.equal(location.origin);
    // Filled as a paste would (value + input event): key presses into a nested frame focused from script are not
    // reliable in a headless browser, and typing is what the card frame's and the element's own tests cover.
    const frameWindow = iframe.contentWindow as Window & typeof globalThis;
    for (const [id, text] of [
      ['number', '5555555555554444'],
      ['expiry', '1230'],
      ['cvc', '123'],
    ] as const) {
      const input = frameWindow.document.getElementById(id) as HTMLInputElement;
      input.focus();
      input.value = text;
      input.dispatchEvent(new frameWindow.InputEvent('input', { bubbles: true, inputType: 'insertFromPaste', data: text }));
    }
    await waitFor(() => cardValid, 'the frame to report the card valid');
    // The error callback ends the wait too, so a failure names its code instead of timing out.
    const transaction = await new Promise<Transaction>((resolve, reject) => {
      sdk.error((error) => reject(new Error(`error callback: ${error.code} ${error.message}`)));
      sdk.pay(resolve, { amount: 990, currency: 'ILS' });
    });
    expect(transaction.status).to.equal(10);
    expect(calls.find((call) => call.url.endsWith('/payments'))!.body).to.deep.include({ method: 'card', amount: 990, currency: 'ILS' });
    expect(errors).to.deep.equal([]);
    sdk.destroy();
    container.remove();
  });

  it('warns and keeps the first copy when loaded twice', async () => {
    const warnings: string[] = [];
    const { warn } = console;
    console.warn = (...args: unknown[]) => warnings.push(args.join(' '));
    try {
      await loadScript({ src: `${location.origin}/sdk/elements/1.1.1/sdk.js`, 'data-api-base': 'http://elsewhere.test' });
    } finally {
      console.warn = warn;
    }
    expect((window as Window & { ServiceFrontEndSDK?: ServiceFrontEndSDK }).ServiceFrontEndSDK).to.equal(sdk);
    expect(warnings.some((line) => line.includes('sdk-loaded-twice'))).to.equal(true);
  });
});
