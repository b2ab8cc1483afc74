import { expect } from '@open-wc/testing';
import { formatAmount } from './amounts';

/**
 * What a shopper sees, left to right: the visible characters of `text` shown in a paragraph of `language`, in the
 * order Chromium lays them out (the bidirectional algorithm applied; invisible marks and spaces left out).
 */
function seen(text: string, language: 'en' | 'he' | 'ar'): string {
  const paragraph = Object.assign(document.createElement('p'), { lang: language, dir: language === 'en' ? 'ltr' : 'rtl', textContent: text });
  paragraph.style.font = '20px sans-serif';
  document.body.append(paragraph);
  try {
    const node = paragraph.firstChild as Text;
    const glyphs: { char: string; x: number }[] = [];
    for (let i = 0; i < node.length; i += 1) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const box = range.getBoundingClientRect();
      const char = node.data[i]!;
      if (box.width > 0 && char.trim() !== '') glyphs.push({ char, x: box.left + box.width / 2 });
    }
    return glyphs
      .sort((a, b) => a.x - b.x)
      .map((glyph) => glyph.char)
      .join('');
  } finally {
    paragraph.remove();
  }
}

describe('amounts as a shopper sees them', () => {
  it('keeps a currency sign of Latin letters whole in right-to-left text: US$ beside the number, never $US', () => {
    expect(seen(formatAmount(123450, 'USD', 'ar'), 'ar')).to.equal('US$1,234.50');
    expect(seen(formatAmount(1800, 'CAD', 'ar'), 'ar')).to.equal('CA$18.00');
    expect(seen(`الإجمالي ${formatAmount(123450, 'USD', 'ar')}`, 'ar')).to.match(/^US\$1,234\.50/);
  });

  it('writes he and en amounts as their languages do', () => {
    expect(seen(formatAmount(123450, 'ILS', 'he'), 'he')).to.equal('₪1,234.50');
    expect(seen(formatAmount(123450, 'USD', 'he'), 'he')).to.equal('$1,234.50');
    expect(seen(formatAmount(123450, 'USD', 'en'), 'en')).to.equal('$1,234.50');
  });
});
