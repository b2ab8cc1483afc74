import { expect } from '@open-wc/testing';
import icons from 'simple-icons/icons.json';
import { CARD_MARKS, WALLET_MARKS, type Mark } from './marks';

function pathElement(d: string): SVGPathElement {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', d);
  svg.append(path);
  document.body.append(svg);
  return path;
}

// Simple Icons' own marks, read from the package's files: each one's SVG and its colour from the data file
// (importing 'simple-icons' itself would load every icon, 5 MB of script, into the test browser).
const simpleIcons = new URL('../../node_modules/simple-icons/', import.meta.url);

async function simpleIcon(slug: string): Promise<{ path: string; hex: string }> {
  const svg = await fetch(new URL(`icons/${slug}.svg`, simpleIcons)).then((response) => response.text());
  const path = new DOMParser().parseFromString(svg, 'image/svg+xml').querySelector('path')?.getAttribute('d');
  const hex = icons.find((icon) => icon.slug === slug)?.hex;
  if (!path || !hex) throw new Error(`simple-icons has no ${slug} mark`);
  return { path, hex };
}

/** `rounded` draws `original` within a tenth of a unit of the 24-unit box everywhere. */
function expectWithinATenth(original: SVGPathElement, rounded: SVGPathElement): void {
  const [a, b] = [original.getBBox(), rounded.getBBox()];
  for (const side of ['x', 'y', 'width', 'height'] as const) expect(Math.abs(a[side] - b[side]), side).to.be.below(0.1);
  const length = original.getTotalLength();
  expect(Math.abs(rounded.getTotalLength() - length) / length).to.be.below(0.01);
  // Every point of the rounded outline is within a tenth of a unit of the original outline: the original stroked 0.2
  // wide with round joins and caps covers exactly the points that near it, so the browser's own isPointInStroke
  // answers the distance (sampling the original instead cost seconds under load).
  original.setAttribute('stroke-width', '0.2');
  original.setAttribute('stroke-linejoin', 'round');
  original.setAttribute('stroke-linecap', 'round');
  const roundedLength = rounded.getTotalLength();
  for (let k = 0; k <= 400; k++) {
    const point = rounded.getPointAtLength((k * roundedLength) / 400);
    expect(original.isPointInStroke(point), `point ${k} (${point.x}, ${point.y})`).to.equal(true);
  }
}

async function expectRounded(mark: Mark, slug: string, shorterThan: number): Promise<void> {
  const icon = await simpleIcon(slug);
  expect(mark.path.length).to.be.below(icon.path.length * shorterThan);
  expect(mark.color.toUpperCase()).to.equal(`#${icon.hex}`);
  expectWithinATenth(pathElement(icon.path), pathElement(mark.path));
}

describe('brand marks', () => {
  afterEach(() => document.querySelectorAll('body > svg').forEach((svg) => svg.remove()));

  it("the rounded Apple Pay wordmark draws Simple Icons' own within a tenth of a unit everywhere", () => expectRounded(WALLET_MARKS.applepay, 'applepay', 0.7));

  it("the rounded Google mark draws Simple Icons' own within a tenth of a unit everywhere", () => expectRounded(WALLET_MARKS.googlepay, 'google', 0.8));

  for (const [brand, slug] of [
    ['visa', 'visa'],
    ['mastercard', 'mastercard'],
    ['amex', 'americanexpress'],
    ['jcb', 'jcb'],
  ] as const) {
    it(`the rounded ${brand} mark draws Simple Icons' own within a tenth of a unit everywhere`, () => expectRounded(CARD_MARKS[brand]!, slug, 0.85));
  }
});
