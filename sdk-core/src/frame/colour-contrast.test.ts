import { expect } from '@open-wc/testing';
import { composite, contrastRatio, luminance, readColour } from './colour-contrast';

describe('colour contrast', () => {
  it("measures WCAG 2's contrast ratio", () => {
    expect(contrastRatio([0, 0, 0, 1], [255, 255, 255, 1])).to.be.closeTo(21, 0.001);
    expect(contrastRatio([255, 255, 255, 1], [255, 255, 255, 1])).to.equal(1);
    // The default theme's text on its field, and its error red on white (4.5:1 and more).
    expect(contrastRatio([26, 26, 26, 1], [255, 255, 255, 1])).to.be.closeTo(17.4, 0.1);
    expect(contrastRatio([179, 38, 30, 1], [255, 255, 255, 1])).to.be.greaterThan(4.5);
    expect(luminance([255, 255, 255, 1])).to.equal(1);
  });

  it('paints one colour over another', () => {
    expect(composite([0, 0, 0, 0.5], [255, 255, 255, 1])).to.deep.equal([127.5, 127.5, 127.5, 1]);
    expect(composite([0, 0, 0, 0.01], [255, 255, 255, 1])[0], 'nearly the white under it').to.be.greaterThan(250);
    expect(composite([0, 0, 0, 0], [0, 0, 0, 0])).to.deep.equal([0, 0, 0, 0]);
    expect(composite([10, 20, 30, 0.5], [0, 0, 0, 0])[3], 'over nothing: still half transparent').to.equal(0.5);
  });

  it('reads any CSS colour as the browser paints it', () => {
    expect(readColour(document, 'rgb(0 0 0 / 1%)')[3]).to.be.below(0.02);
    expect(readColour(document, '#ffffff01')[3]).to.be.below(0.01);
    expect(readColour(document, 'color-mix(in srgb, red, transparent 99%)')[3]).to.be.below(0.02);
    expect(readColour(document, 'transparent')).to.deep.equal([0, 0, 0, 0]);
    expect(readColour(document, 'lab(50% 0 0)').slice(0, 3)).to.deep.equal([119, 119, 119]);
    expect(readColour(document, 'not a colour')[3], 'anything else is transparent').to.equal(0);
  });
});
