import { expect } from '@open-wc/testing';
import { LANGUAGES } from '@svc/protocol/light';
import { EN } from './en';
import ar from './locales/ar.json';
import de from './locales/de.json';
import es from './locales/es.json';
import fr from './locales/fr.json';
import he from './locales/he.json';
import ru from './locales/ru.json';

const CATALOGUES: Record<string, Record<string, unknown>> = { ar, de, es, fr, he, ru };
const placeholders = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!).sort();

describe('the catalogues', () => {
  it('has one for every language but en (en is the bundled source)', () => {
    expect(Object.keys(CATALOGUES).sort()).to.deep.equal(LANGUAGES.filter((language) => language !== 'en').sort());
  });

  for (const [language, catalogue] of Object.entries(CATALOGUES)) {
    it(`${language} has exactly en's keys, each a text with en's placeholders`, () => {
      expect(
        Object.keys(catalogue).filter((key) => !(key in EN)),
        'keys en does not have',
      ).to.deep.equal([]);
      expect(
        Object.keys(EN).filter((key) => !(key in catalogue)),
        'keys missing (they would fall back to en)',
      ).to.deep.equal([]);
      for (const [key, text] of Object.entries(EN)) {
        const translated = catalogue[key];
        expect(translated, key).to.be.a('string').and.not.equal('');
        expect(placeholders(translated as string), key).to.deep.equal(placeholders(text));
      }
    });

    it(`${language} translates what a shopper reads (only names and formats may equal en)`, () => {
      const same = Object.entries(EN).filter(([key, text]) => catalogue[key] === text && !/^[\d\s]*$/.test(text));
      const allowed =
        /^(method\.(paypal|applepay|googlepay)|card\.(number|cvc)\.placeholder|card\.expiry\.placeholder|express\.total|sheet\.total|page\.lineTotal)$/;
      expect(same.map(([key]) => key).filter((key) => !allowed.test(key))).to.deep.equal([]);
    });
  }

  it("keeps the names QA relies on in en's entries", () => {
    expect(EN['card.number.label']).to.equal('Card number');
    expect(EN['card.expiry.label']).to.equal('Expiry date (MM/YY)');
    expect(EN['card.cvc.label']).to.equal('Security code (CVC)');
    expect(EN['widget.frame']).to.equal('Secure card payment form');
    expect(EN['widget.iframe']).to.equal('Payment form');
    expect(EN['express.payWith']).to.equal('Pay with {wallet}');
    expect(EN['page.payAmount']).to.equal('Pay {amount} {currency}');
    expect(EN['page.approved']).to.equal('Payment approved');
  });
});
