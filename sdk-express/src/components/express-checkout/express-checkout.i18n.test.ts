import { expect } from '@open-wc/testing';
import { LANGUAGES } from '@svc/protocol/light';
import { EN, fill, type Catalogue, type Language } from '@svc/sdk-core/i18n';
import { resetWarnings } from '@svc/sdk-core/shared';
import { resetApiMock, startApiMock } from '@svc/sdk-core/testing/api-mock';
import { button, buttons, dialog, mountReady, NAMES, press, sheetOpen, waitFor } from '../../../test/express-helpers';
import type { SvcEcomSdkExpress } from './express-checkout';

const catalogues = new Map<Language, Catalogue>();
async function catalogue(language: Language): Promise<Catalogue> {
  if (language === 'en') return EN as Catalogue;
  if (!catalogues.has(language)) catalogues.set(language, (await (await fetch(`/sdk/locales/${language}.json`)).json()) as Catalogue);
  return catalogues.get(language)!;
}

const buttonsBox = (element: SvcEcomSdkExpress) => element.shadowRoot!.querySelector<HTMLElement>('.buttons')!;
const nameOf = (candidate: HTMLElement) => candidate.textContent!.replace(/\s+/g, ' ').trim();
const label = (sheet: HTMLDialogElement, name: string) => sheet.querySelector(`input[name="${name}"]`)!.closest('label')!.textContent!.trim();

/** Waits until the buttons speak `language`. */
async function speaking(element: SvcEcomSdkExpress, language: Language): Promise<void> {
  await waitFor(() => buttonsBox(element).lang === language, `the buttons speak ${language}`);
  await element.updateComplete;
}

describe('<svc-ecom-sdk-express> in every language', () => {
  let restoreLanguages: (() => void) | null = null;
  before(() => startApiMock());
  afterEach(() => {
    document.querySelectorAll('svc-ecom-sdk-express').forEach((node) => node.remove());
    resetApiMock();
    resetWarnings();
    restoreLanguages?.();
    restoreLanguages = null;
  });

  for (const language of LANGUAGES) {
    it(`${language}: the buttons' names, the sheet's texts and its amount come from the ${language} catalogue`, async () => {
      const texts = await catalogue(language);
      const { element } = await mountReady({ locale: language, amount: '1234.50', currency: 'EUR' });
      await speaking(element, language);
      for (const method of ['paypal', 'applepay', 'googlepay'] as const) {
        expect(nameOf(button(element, method))).to.equal(fill(texts['express.payWith'], { wallet: NAMES[method] }).replace(/\s+/g, ' '));
      }
      await press(element, 'paypal');
      const sheet = await sheetOpen(element);
      const amount = new Intl.NumberFormat(language, { style: 'currency', currency: 'EUR' }).format(1234.5);
      expect(sheet.lang).to.equal(language);
      expect(sheet.dir).to.equal(language === 'he' || language === 'ar' ? 'rtl' : 'ltr');
      expect(getComputedStyle(sheet).direction).to.equal(sheet.dir);
      expect(sheet.querySelector('#sheet-total')!.textContent!.replace(/\s+/g, ' ').trim()).to.equal(
        `${fill(texts['sheet.total'], { amount })} ${texts['sheet.sandbox']}`.replace(/\s+/g, ' '),
      );
      expect(sheet.querySelector('legend')!.textContent).to.equal(texts['sheet.billing']);
      expect(label(sheet, 'billing-firstName')).to.equal(texts['sheet.firstName']);
      expect(label(sheet, 'billing-email')).to.equal(texts['sheet.email']);
      expect([...sheet.querySelectorAll('button')].map((candidate) => candidate.textContent!.trim())).to.deep.equal([
        texts['sheet.cancel'],
        texts['sheet.pay'],
      ]);
      expect(buttonsBox(element).dir).to.equal(sheet.dir);
    });
  }

  it('auto (the default) follows the browser’s languages', async () => {
    Object.defineProperty(navigator, 'languages', { configurable: true, get: () => ['ja-JP', 'ar-EG', 'en'] });
    restoreLanguages = () => delete (navigator as { languages?: unknown }).languages;
    const { element } = await mountReady();
    await speaking(element, 'ar');
    expect(nameOf(button(element, 'googlepay'))).to.equal(fill((await catalogue('ar'))['express.payWith'], { wallet: 'Google Pay' }));
  });

  it('an unsupported locale is English, with one warning', async () => {
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (message: string) => warnings.push(message);
    try {
      const { element } = await mountReady({ locale: 'tlh' });
      element.props = { ...element.props, locale: 'tlh-KL' };
      await element.updateComplete;
      await speaking(element, 'en');
      expect(buttons(element).map(nameOf)).to.deep.equal(['Pay with PayPal', 'Pay with Apple Pay', 'Pay with Google Pay']);
      expect(warnings.filter((line) => line.includes('locale-unsupported'))).to.have.length(1);
    } finally {
      console.warn = warn;
    }
  });

  it('props.locale must be text', async () => {
    const { seen } = await mountReady({ locale: 7 as unknown as string });
    expect(seen.error.map((error) => [error.code, error.message.includes('props.locale must be')])).to.deep.equal([['config_invalid', true]]);
  });

  it('changes language at run time: an open sheet keeps what was typed and turns right to left', async () => {
    const { element } = await mountReady({ locale: 'en' });
    await press(element, 'applepay');
    const sheet = await sheetOpen(element);
    const city = sheet.querySelector<HTMLInputElement>('input[name="billing-city"]')!;
    city.value = 'Haifa';
    element.props = { ...element.props, locale: 'he' };
    await speaking(element, 'he');
    const he = await catalogue('he');
    expect(dialog(element)).to.equal(sheet);
    expect(sheet.open).to.equal(true);
    expect(sheet.dir).to.equal('rtl');
    expect(city.value).to.equal('Haifa');
    expect(label(sheet, 'billing-city')).to.equal(he['sheet.city']);
    expect(sheet.querySelector('#sheet-total')!.textContent).to.contain(new Intl.NumberFormat('he', { style: 'currency', currency: 'USD' }).format(10.5));
    expect(nameOf(button(element, 'paypal'))).to.equal(fill(he['express.payWith'], { wallet: 'PayPal' }));
  });
});
