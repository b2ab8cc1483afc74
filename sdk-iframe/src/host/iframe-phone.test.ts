/** The iframe widget on a 390 px phone, in every language: the method tabs fit, the expiry and security code line up. */
import { expect } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import { LANGUAGES } from '@svc/protocol/light';
import type { ServiceFrontEndSDK } from '@svc/sdk-core/host';
import { resetApiMock, startApiMock } from '@svc/sdk-core/testing/api-mock';
import { waitFor } from '@svc/sdk-core/testing/helpers';
import { createIframeSdk } from './iframe-sdk';
import { cardShown } from './widget-under-test';

describe('iframe widget at 390 px', () => {
  let sdk: ServiceFrontEndSDK;
  let container: HTMLDivElement;
  before(async () => {
    await startApiMock();
    await setViewport({ width: 390, height: 844 });
  });
  after(() => setViewport({ width: 800, height: 600 }));
  beforeEach(() => {
    sdk = createIframeSdk(window, location.origin, { readyMs: 3_000 });
    container = document.createElement('div');
    container.id = 'service-front-end';
    document.body.append(container);
  });
  afterEach(() => {
    sdk.destroy();
    container.remove();
    resetApiMock();
  });

  for (const language of LANGUAGES) {
    it(`${language}: the tabs show their whole names; expiry and security code stay lined up when one error wraps`, async () => {
      sdk.config({ mode: 'sandbox', clientId: 'ck_test', locale: language });
      sdk.init();
      const doc = await cardShown(container);
      await waitFor(() => doc.documentElement.lang === language, `the widget speaks ${language}`);
      const view = doc.defaultView as Window & typeof globalThis;
      const width = doc.documentElement.clientWidth;
      for (const tab of doc.querySelectorAll<HTMLElement>('label.method:not([hidden])')) {
        expect(tab.scrollWidth, `the tab "${tab.textContent}" fits its name`).to.be.at.most(tab.clientWidth);
        expect(tab.getBoundingClientRect().right, `"${tab.textContent}" ends inside`).to.be.at.most(width);
      }
      const fill = (id: string, value: string) => {
        const input = doc.getElementById(id) as HTMLInputElement;
        input.focus();
        input.value = value;
        input.dispatchEvent(new view.InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));
      };
      fill('expiry', '1');
      fill('cvc', '1');
      doc.getElementById('number')!.focus();
      const error = (id: string) => doc.getElementById(`${id}-error`)!;
      await waitFor(() => error('expiry').textContent !== '' && error('cvc').textContent !== '', 'both errors shown');
      const top = (id: string) => doc.getElementById(id)!.getBoundingClientRect().top;
      expect(top('expiry'), 'the two fields on one line').to.be.closeTo(top('cvc'), 0.5);
      expect(top('expiry-error'), 'their errors start on one line').to.be.closeTo(top('cvc-error'), 0.5);
    });
  }
});
