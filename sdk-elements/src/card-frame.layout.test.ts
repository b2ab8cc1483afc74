/** The card frame's layout on a phone: the expiry and security code fields stay side by side, lined up, whatever their errors. */
import { expect } from '@open-wc/testing';
import { LANGUAGES } from '@svc/protocol/light';
import { resetApiMock, startApiMock } from '@svc/sdk-core/testing/api-mock';
import { waitFor } from '@svc/sdk-core/testing/helpers';
import { frameDoc, iframe, input, mountFrame, paste, send, unmountFrame } from '../test/card-frame-host';

describe('card frame layout', () => {
  before(() => startApiMock());
  afterEach(() => {
    unmountFrame();
    resetApiMock();
  });

  for (const language of LANGUAGES) {
    it(`${language}: at a phone's width, expiry and security code stay lined up when one error wraps`, async () => {
      await mountFrame(location.origin, language === 'en' ? '' : `&lang=${language}`);
      iframe.style.width = '340px';
      await waitFor(() => frameDoc().documentElement.lang === language, `the frame speaks ${language}`);
      send({ type: 'init', sessionId: 'ses_1', sessionToken: 'tok_1', apiBase: location.origin, debug: false });
      // An incomplete expiry (a long error) and a security code of the wrong length (a short one), both shown.
      paste('expiry', '1');
      paste('cvc', '1');
      input('number').focus();
      const error = (id: string) => frameDoc().getElementById(`${id}-error`)!;
      await waitFor(() => error('expiry').textContent !== '' && error('cvc').textContent !== '', 'both errors shown');
      const top = (element: Element) => element.getBoundingClientRect().top;
      expect(top(input('expiry')), 'the two fields on one line').to.be.closeTo(top(input('cvc')), 0.5);
      expect(top(error('expiry')), 'their errors start on one line').to.be.closeTo(top(error('cvc')), 0.5);
      const label = (id: string) => frameDoc().querySelector(`label[for="${id}"]`)!;
      expect(label('expiry').getBoundingClientRect().bottom, 'their labels end on one line').to.be.closeTo(label('cvc').getBoundingClientRect().bottom, 0.5);
    });
  }
});
