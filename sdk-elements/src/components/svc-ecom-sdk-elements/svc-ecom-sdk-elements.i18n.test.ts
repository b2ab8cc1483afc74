import { expect } from '@open-wc/testing';
import { LANGUAGES } from '@svc/protocol/light';
import { EN, type Catalogue, type Language } from '@svc/sdk-core/i18n';
import { resetWarnings } from '@svc/sdk-core/shared';
import { resetApiMock, startApiMock } from '@svc/sdk-core/testing/api-mock';
import { waitFor } from '@svc/sdk-core/testing/helpers';
import { frameOf, mount, part, radios, ready, typeCard } from '../../../test/element-helpers';
import type { SvcEcomSdkElements } from './svc-ecom-sdk-elements';

const catalogues = new Map<Language, Catalogue>();
async function catalogue(language: Language): Promise<Catalogue> {
  if (language === 'en') return EN as Catalogue;
  if (!catalogues.has(language)) catalogues.set(language, (await (await fetch(`/sdk/locales/${language}.json`)).json()) as Catalogue);
  return catalogues.get(language)!;
}

const base = (element: SvcEcomSdkElements) => part(element, 'base')!;
const frameDoc = (element: SvcEcomSdkElements) => frameOf(element).contentDocument!;

/** Ready, with the widget and its card frame both speaking `language`. */
async function speaking(element: SvcEcomSdkElements, language: Language): Promise<void> {
  await ready(element);
  await waitFor(() => base(element).lang === language, `the widget speaks ${language}`);
  await waitFor(() => frameDoc(element).documentElement.lang === language || language === 'en', `the card frame speaks ${language}`);
}

function mountIn(locale: string, maxInstallments?: number): SvcEcomSdkElements {
  const element = mount(maxInstallments ? { maxInstallments } : {});
  element.locale = locale;
  return element;
}

describe('<svc-ecom-sdk-elements> in every language', () => {
  let restoreLanguages: (() => void) | null = null;
  before(() => startApiMock());
  afterEach(() => {
    document.querySelectorAll('svc-ecom-sdk-elements').forEach((node) => node.remove());
    resetApiMock();
    restoreLanguages?.();
    restoreLanguages = null;
  });

  /** Pretends the browser prefers `languages` (navigator.languages). */
  function browserPrefers(languages: string[]): void {
    Object.defineProperty(navigator, 'languages', { configurable: true, get: () => languages });
    restoreLanguages = () => delete (navigator as { languages?: unknown }).languages;
  }

  for (const language of LANGUAGES) {
    it(`${language}: every accessible name and text comes from the ${language} catalogue`, async () => {
      const texts = await catalogue(language);
      // A session with installments: the number of payments shows beside the card fields.
      const element = mountIn(language, 6);
      await speaking(element, language);
      expect(part(element, 'legend')!.textContent).to.equal(texts['widget.methods']);
      expect(radios(element).map((radio) => radio.nextElementSibling!.textContent)).to.deep.equal(
        (['card', 'paypal', 'applepay', 'googlepay'] as const).map((method) => texts[`method.${method}`]),
      );
      expect(frameOf(element).title).to.equal(texts['widget.frame']);
      const doc = frameDoc(element);
      const labelOf = (id: string) => (doc.getElementById(id) as HTMLInputElement).labels![0]!.textContent;
      expect([labelOf('number'), labelOf('expiry'), labelOf('cvc')]).to.deep.equal([
        texts['card.number.label'],
        texts['card.expiry.label'],
        texts['card.cvc.label'],
      ]);
      await waitFor(() => doc.getElementById('installments'), 'the number of payments');
      expect(labelOf('installments')).to.equal(texts['card.installments.label']);
      expect(doc.getElementById('card-form')!.getAttribute('aria-label')).to.equal(texts['card.form']);
      expect((doc.getElementById('expiry') as HTMLInputElement).placeholder).to.equal(texts['card.expiry.placeholder']);
      // An error is the field's accessible description, in the language.
      await typeCard(element, { number: '4242', expiry: '', cvc: '' });
      element.pay({ amount: 100, currency: 'USD' }).catch(() => undefined);
      await waitFor(() => doc.getElementById('number-error')!.textContent !== '', 'the field errors shown');
      expect(doc.getElementById('number-error')!.textContent).to.equal(texts['card.number.incomplete']);
      expect(doc.getElementById('number')!.getAttribute('aria-describedby')).to.contain('number-error');
      await waitFor(() => part(element, 'error')!.textContent !== '', 'the alert');
      expect(part(element, 'error')!.textContent).to.equal(texts['error.fields_incomplete']);
    });
  }

  for (const language of ['he', 'ar'] as const) {
    it(`${language}: lays out right to left, with the card number, expiry and security code left to right`, async () => {
      const element = mountIn(language);
      await speaking(element, language);
      expect(base(element).dir).to.equal('rtl');
      expect(getComputedStyle(base(element)).direction).to.equal('rtl');
      const doc = frameDoc(element);
      expect(doc.documentElement.dir).to.equal('rtl');
      expect(getComputedStyle(doc.querySelector('label[for="number"]')!).direction).to.equal('rtl');
      for (const id of ['number', 'expiry', 'cvc']) expect(getComputedStyle(doc.getElementById(id)!).direction, id).to.equal('ltr');
      // The method labels start at the right edge: the first radio is right of its text.
      const label = radios(element)[0]!.closest('label')!;
      expect(radios(element)[0]!.getBoundingClientRect().left).to.be.greaterThan(label.querySelector('span')!.getBoundingClientRect().left);
    });
  }

  it("makes its card frame in the widget's language (`lang` in the frame's URL), en without it", async () => {
    const hebrew = mountIn('he');
    await speaking(hebrew, 'he');
    expect(new URL(frameOf(hebrew).src).searchParams.get('lang')).to.equal('he');
    browserPrefers(['ar-EG', 'en']);
    const auto = mount();
    await speaking(auto, 'ar');
    expect(new URL(frameOf(auto).src).searchParams.get('lang'), 'auto: the language it resolved to').to.equal('ar');
    const english = mountIn('en');
    await speaking(english, 'en');
    expect(new URL(frameOf(english).src).searchParams.has('lang')).to.equal(false);
  });

  it('auto (the default) follows the browser’s languages', async () => {
    browserPrefers(['ja-JP', 'ru-RU', 'en']);
    const element = mount();
    await speaking(element, 'ru');
    expect(part(element, 'legend')!.textContent).to.equal((await catalogue('ru'))['widget.methods']);
  });

  it('an unsupported locale is English, with one warning', async () => {
    resetWarnings();
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (message: string) => warnings.push(message);
    try {
      const element = mountIn('tlh');
      await speaking(element, 'en');
      mountIn('tlh-KL');
      await ready(element);
      expect(part(element, 'legend')!.textContent).to.equal(EN['widget.methods']);
      expect(warnings.filter((line) => line.includes('locale-unsupported'))).to.have.length(1);
    } finally {
      console.warn = warn;
    }
  });

  it('changes language at run time without losing what was typed', async () => {
    const element = mountIn('en');
    await speaking(element, 'en');
    await typeCard(element, { number: '4242424242424242', expiry: '1230', cvc: '12' });
    const doc = frameDoc(element);
    element.locale = 'he';
    await speaking(element, 'he');
    const he = await catalogue('he');
    expect((doc.getElementById('number') as HTMLInputElement).value).to.equal('4242 4242 4242 4242');
    expect((doc.getElementById('expiry') as HTMLInputElement).value).to.equal('12/30');
    expect((doc.getElementById('cvc') as HTMLInputElement).value).to.equal('12');
    expect(doc.querySelector('label[for="number"]')!.textContent).to.equal(he['card.number.label']);
    expect(frameOf(element), 'the same frame').to.equal(frameOf(element));
    element.locale = 'de';
    await speaking(element, 'de');
    expect((doc.getElementById('number') as HTMLInputElement).value).to.equal('4242 4242 4242 4242');
    expect(base(element).dir).to.equal('ltr');
  });
});
