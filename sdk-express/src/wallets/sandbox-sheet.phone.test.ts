/** The sandbox wallet sheet on a 390 px phone, in every language: one column that fits, addresses left to right. */
import { expect } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import { LANGUAGES } from '@svc/protocol/light';
import { resetApiMock, startApiMock } from '@svc/sdk-core/testing/api-mock';
import { dialog, mountReady, press, sheetOpen, waitFor } from '../../test/express-helpers';

describe('the sandbox wallet sheet at 390 px', () => {
  before(async () => {
    await startApiMock();
    await setViewport({ width: 390, height: 844 });
  });
  after(() => setViewport({ width: 800, height: 600 }));
  afterEach(() => {
    document.querySelectorAll('svc-ecom-sdk-express').forEach((node) => node.remove());
    resetApiMock();
  });

  for (const language of LANGUAGES) {
    it(`${language}: the sheet and every field fit the screen, one field a row`, async () => {
      const { element } = await mountReady({ locale: language });
      await press(element, 'paypal');
      const sheet = await sheetOpen(element);
      await waitFor(() => dialog(element).lang === language, `the sheet in ${language}`);
      const box = sheet.getBoundingClientRect();
      expect(box.left, 'the sheet starts on the screen').to.be.at.least(0);
      expect(box.right, 'the sheet ends on the screen').to.be.at.most(390);
      const inputs = [...sheet.querySelectorAll<HTMLInputElement>('fieldset input')];
      for (const input of inputs) {
        const rect = input.getBoundingClientRect();
        expect(rect.left, `${input.name} starts inside the sheet`).to.be.at.least(box.left);
        expect(rect.right, `${input.name} ends inside the sheet`).to.be.at.most(box.right);
        expect(rect.width, `${input.name} spans its column`).to.be.closeTo(input.closest('label')!.getBoundingClientRect().width, 1);
      }
      const first = sheet.querySelector('input[name="billing-firstName"]')!.getBoundingClientRect();
      const last = sheet.querySelector('input[name="billing-lastName"]')!.getBoundingClientRect();
      expect(last.top, 'one column: the last name under the first').to.be.greaterThan(first.bottom);
    });
  }

  for (const language of ['he', 'ar'] as const) {
    it(`${language}: e-mail, postal code and country are typed left to right in a right-to-left sheet`, async () => {
      const { element } = await mountReady({ locale: language });
      await press(element, 'paypal');
      const sheet = await sheetOpen(element);
      await waitFor(() => dialog(element).dir === 'rtl', 'the sheet right to left');
      for (const name of ['billing-email', 'billing-postalCode', 'billing-country']) {
        expect(getComputedStyle(sheet.querySelector(`input[name="${name}"]`)!).direction, name).to.equal('ltr');
      }
      expect(getComputedStyle(sheet.querySelector('input[name="billing-city"]')!).direction, 'a city is written in the language').to.equal('rtl');
    });
  }
});
