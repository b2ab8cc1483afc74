/**
 * The iframe widget page in every language: its texts from the catalogue, right to left for he and ar, the iframe's
 * title in the merchant page, a run-time change.
 */
import { expect } from '@open-wc/testing';
import { LANGUAGES } from '@svc/protocol/light';
import { EN, type Catalogue, type Language } from '@svc/sdk-core/i18n';
import type { ServiceFrontEndSDK } from '@svc/sdk-core/host';
import { resetWarnings } from '@svc/sdk-core/shared';
import { resetApiMock, startApiMock } from '@svc/sdk-core/testing/api-mock';
import { waitFor } from '@svc/sdk-core/testing/helpers';
import { createIframeSdk } from './iframe-sdk';
import { cardShown } from './widget-under-test';

async function catalogue(language: Language): Promise<Catalogue> {
  return language === 'en' ? (EN as Catalogue) : ((await (await fetch(`/sdk/locales/${language}.json`)).json()) as Catalogue);
}

describe('iframe widget in every language', () => {
  let sdk: ServiceFrontEndSDK;
  let container: HTMLDivElement;
  before(() => startApiMock());
  beforeEach(() => {
    resetWarnings();
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

  async function start(locale: string, language: Language): Promise<Document> {
    sdk.config({ mode: 'sandbox', clientId: 'ck_test', locale });
    sdk.init();
    const doc = await cardShown(container);
    await waitFor(() => doc.documentElement.lang === language, `the widget speaks ${language}`);
    return doc;
  }

  for (const language of LANGUAGES) {
    it(`${language}: the names and texts are the ${language} catalogue's`, async () => {
      const texts = await catalogue(language);
      const doc = await start(language, language);
      const labels = (selector: string) => [...doc.querySelectorAll(selector)].map((node) => node.textContent);
      expect(doc.querySelector('#methods legend')!.textContent).to.equal(texts['widget.methods']);
      expect(labels('#methods label span')).to.deep.equal(
        ['card', 'paypal', 'applepay', 'googlepay'].map((method) => texts[`method.${method}` as keyof Catalogue]),
      );
      expect(['number', 'expiry', 'cvc'].map((id) => (doc.getElementById(id) as HTMLInputElement).labels![0]!.textContent)).to.deep.equal([
        texts['card.number.label'],
        texts['card.expiry.label'],
        texts['card.cvc.label'],
      ]);
      expect(doc.documentElement.dir).to.equal(language === 'he' || language === 'ar' ? 'rtl' : 'ltr');
      // The iframe in the merchant page is named in the widget's language too (the name a screen reader announces).
      const iframe = container.querySelector('iframe')!;
      await waitFor(() => iframe.title === texts['widget.iframe'], `the iframe's title is ${texts['widget.iframe']}`);
      for (const id of ['number', 'expiry', 'cvc']) expect(getComputedStyle(doc.getElementById(id)!).direction, id).to.equal('ltr');
    });
  }

  it('a new config({ locale }) changes the language and keeps what was typed', async () => {
    const doc = await start('fr', 'fr');
    const number = doc.getElementById('number') as HTMLInputElement;
    number.value = '4242 4242';
    number.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));
    sdk.config({ mode: 'sandbox', clientId: 'ck_test', locale: 'ar' });
    await waitFor(() => doc.documentElement.lang === 'ar', 'the widget speaks ar');
    expect(number.value).to.equal('4242 4242');
    const ar = await catalogue('ar');
    expect(number.labels![0]!.textContent).to.equal(ar['card.number.label']);
    const iframe = container.querySelector('iframe')!;
    await waitFor(() => iframe.title === ar['widget.iframe'], "the iframe's title is ar's");
  });
});
