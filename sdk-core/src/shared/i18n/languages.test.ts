import { expect } from '@open-wc/testing';
import { acceptLanguageTags, firstSupported, resolveLocale } from './languages';
import { formatAmount, formatAmountNumber } from './amounts';
import { fill, Texts } from './texts';
import { loadCatalogue } from './catalogue-loader';
import { LocaleState } from './locale-state';
import { EN_CARD } from './en';
import { resetWarnings } from '../warnings';

describe('choosing a language', () => {
  it('auto (or nothing) follows the browser: its first supported language, else en', () => {
    expect(resolveLocale('auto', ['ja-JP', 'ru-RU', 'en'])).to.deep.equal({ language: 'ru', unsupported: false });
    expect(resolveLocale(undefined, ['he'])).to.deep.equal({ language: 'he', unsupported: false });
    expect(resolveLocale('auto', ['ja', 'zh'])).to.deep.equal({ language: 'en', unsupported: false });
  });

  it('takes a supported tag with or without its region, and anything else as en, unsupported', () => {
    expect(resolveLocale('fr-CA', ['de'])).to.deep.equal({ language: 'fr', unsupported: false });
    expect(resolveLocale('AR', [])).to.deep.equal({ language: 'ar', unsupported: false });
    expect(resolveLocale('ja', ['he'])).to.deep.equal({ language: 'en', unsupported: true });
    expect(resolveLocale(42, ['he'])).to.deep.equal({ language: 'en', unsupported: true });
  });

  it('reads Accept-Language by preference', () => {
    expect(acceptLanguageTags('en;q=0.5, ru-RU, de;q=0.9, *;q=0.1')).to.deep.equal(['ru-RU', 'de', 'en']);
    expect(acceptLanguageTags('fr;q=0, es')).to.deep.equal(['es']);
    expect(firstSupported(acceptLanguageTags('ja, ru;q=0.8'))).to.equal('ru');
    expect(acceptLanguageTags(undefined)).to.deep.equal([]);
  });
});

describe('texts', () => {
  it('fills {name} placeholders', () => {
    expect(fill('Pay {amount} {currency}', { amount: '12.50', currency: 'USD' })).to.equal('Pay 12.50 USD');
    expect(fill('{missing} stays', {})).to.equal('{missing} stays');
  });

  it('formats amounts the language’s way', () => {
    expect(formatAmount(1250, 'EUR', 'de')).to.match(/^12,50\s€$/);
    expect(formatAmount(1250, 'USD', 'en')).to.equal('$12.50');
    expect(formatAmountNumber(123450, 'ILS', 'en')).to.equal('1,234.50');
    expect(formatAmountNumber(123450, 'RUB', 'ru')).to.equal('1\u00a0234,50');
    expect(formatAmountNumber(123450, 'ILS', 'he')).to.equal('1,234.50');
    expect(formatAmount(123450, 'ILS', 'en', 'code')).to.equal('ILS\u00a01,234.50');
  });

  it('falls back to en for a key a catalogue lacks', () => {
    const texts = new Texts(EN_CARD);
    texts.use('he', { 'card.number.label': 'מספר כרטיס' });
    expect(texts.t('card.number.label')).to.equal('מספר כרטיס');
    expect(texts.t('card.cvc.label')).to.equal('Security code (CVC)');
    expect(texts.dir).to.equal('rtl');
  });

  it('loads a catalogue from the service once, and en never', async () => {
    expect(await loadCatalogue(location.origin, 'en')).to.deep.equal({});
    const ru = await loadCatalogue(location.origin, 'ru');
    expect(ru['card.number.label']).to.equal('Номер карты');
    expect(loadCatalogue(location.origin, 'ru')).to.equal(loadCatalogue(location.origin, 'ru'));
  });

  it('warns once about an unsupported locale and speaks en; the latest request wins', async () => {
    resetWarnings();
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (message: string) => warnings.push(message);
    try {
      let changes = 0;
      const state = new LocaleState(EN_CARD, () => (changes += 1));
      await state.request('xx', location.origin, []);
      await state.request('yy', location.origin, []);
      expect(state.texts.language).to.equal('en');
      expect(warnings.filter((line) => line.includes('locale-unsupported'))).to.have.length(1);
      const slow = state.request('fr', location.origin, []);
      await state.request('de', location.origin, []);
      await slow;
      expect(state.texts.language).to.equal('de');
      expect(state.texts.t('card.number.label')).to.equal('Kartennummer');
      expect(changes).to.be.greaterThan(0);
    } finally {
      console.warn = warn;
    }
  });
});
