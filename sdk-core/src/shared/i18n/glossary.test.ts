/**
 * The glossary of docs/languages.md, held: the words a fluent reviewer of each language chose for the shopper (one term
 * for one thing, one register, the local typography). A new text that brings back a refused word fails here.
 */
import { expect } from '@open-wc/testing';
import { EN } from './en';
import ar from './locales/ar.json';
import de from './locales/de.json';
import es from './locales/es.json';
import fr from './locales/fr.json';
import he from './locales/he.json';
import ru from './locales/ru.json';

type Texts = Record<string, string>;

/** The keys whose text matches `pattern`. */
const saying = (catalogue: Texts, pattern: RegExp): string[] => Object.keys(catalogue).filter((key) => pattern.test(catalogue[key]!));
/** The word sandbox, not the path /sandbox/… of a URL. */
const SANDBOX = /(^|[^/])sandbox/i;
/** The keys that speak of the sandbox, in `en`. */
const SANDBOX_KEYS = saying(EN, SANDBOX);

describe('the glossary (docs/languages.md)', () => {
  it('has texts that speak of the sandbox to check', () => {
    expect(SANDBOX_KEYS.length).to.be.greaterThan(3);
  });

  it('he: זיכוי for a refund, דף for a page, אוטומטית, no masculine-only present, no maqaf before a business', () => {
    expect(saying(he, /החזר/), 'החזר').to.deep.equal([]);
    expect(saying(he, /עמוד/), 'עמוד').to.deep.equal([]);
    expect(saying(he, /בעצמו/), 'בעצמו').to.deep.equal([]);
    expect(saying(he, /(^|[\s(])(טוען|טוענת|מתחבר)([\s.…,]|$)/), 'טוען / מתחבר').to.deep.equal([]);
    expect(saying(he, /־\{business\}/), 'a maqaf before {business}').to.deep.equal([]);
    expect(he['page.refunded']).to.equal('בוצע זיכוי');
    expect(he['page.refundedPartly']).to.equal('בוצע זיכוי חלקי');
    expect(he['sticker.opensItself']).to.contain('אוטומטית');
    expect(he['link.email.note']).to.contain('בדף התשלום');
    for (const key of ['link.sms', 'link.sms.noAmount', 'link.email.subject', 'link.email.ask', 'link.email.ask.noAmount'] as const)
      expect(he[key], key).to.contain('מאת {business}');
    expect(he['terminal.paymentTo']).to.equal('תשלום לבית העסק {business}');
    for (const key of SANDBOX_KEYS) expect(he[key as keyof typeof he], key).to.match(/סביבת (ה)?בדיקות/);
  });

  it('ar: تم الدفع إلى, a tap is لمس, one wording of "no payment is waiting", the polite يُرجى and no bare imperative', () => {
    expect(ar['page.paidTo']).to.equal('تم الدفع إلى');
    expect(ar['terminal.tap']).to.equal('لمس {name}');
    expect(saying(ar, /تمرير/), 'تمرير').to.deep.equal([]);
    expect(ar['terminal.none']).to.equal(ar['sticker.waiting']);
    expect(saying(ar, /(^|\s)(أدخل|جرّب|جرب|حاول|تحقق)\s/), 'a bare imperative').to.deep.equal([]);
    for (const key of SANDBOX_KEYS) expect(ar[key as keyof typeof ar], key).to.contain('بيئة الاختبار');
  });

  it('ru: Счёт от {business} на сумму, the payment expired, на вашей карте, тестовый режим for the sandbox', () => {
    expect(ru['link.sms']).to.match(/^Счёт от \{business\} на сумму \{amount\}/);
    expect(ru['link.email.ask']).to.equal('Счёт от {business} на сумму {amount}.');
    expect(saying(ru, /выставил/), 'выставил(а)').to.deep.equal([]);
    expect(ru['page.expired']).to.equal('Срок действия платежа истёк');
    expect(ru['page.reserved']).to.contain('на вашей карте');
    expect(saying(ru, /песочниц/i), 'песочница').to.deep.equal([]);
    for (const key of SANDBOX_KEYS) expect(ru[key as keyof typeof ru], key).to.match(/тестов/i);
  });

  it('fr: a narrow no-break space before : ; ! ?, environnement de test for the sandbox', () => {
    // Punctuation that ends a phrase (followed by a space or the end), not the colon of a URL.
    const badlySpaced = Object.keys(fr).filter((key) => /(^|[^\u202f])[:;!?](\s|$)/.test(fr[key as keyof typeof fr]));
    expect(badlySpaced).to.deep.equal([]);
    expect(saying(fr, /bac à sable/i), 'bac à sable').to.deep.equal([]);
    for (const key of SANDBOX_KEYS) expect(fr[key as keyof typeof fr], key).to.match(/environnement de test/i);
  });

  it('de: Karte, Ablaufdatum (never Gültig bis), vorhalten, Testumgebung (never Sandbox)', () => {
    expect(de['method.card']).to.equal('Karte');
    expect(de['card.expiry.label']).to.match(/^Ablaufdatum/);
    expect(saying(de, /Gültig bis/i), 'Gültig bis').to.deep.equal([]);
    expect(de['terminal.tap']).to.equal('{name} vorhalten');
    expect(saying(de, /anhalten/), 'anhalten').to.deep.equal([]);
    expect(saying(de, SANDBOX), 'Sandbox').to.deep.equal([]);
    for (const key of SANDBOX_KEYS) expect(de[key as keyof typeof de], key).to.contain('Testumgebung');
  });

  it('es: Se ha rechazado tu tarjeta (never ha sido rechazada)', () => {
    expect(es['error.card_declined']).to.match(/^Se ha rechazado tu tarjeta\./);
    expect(saying(es, /ha sido rechazad/), 'ha sido rechazada').to.deep.equal([]);
  });
});
