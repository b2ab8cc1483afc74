import { expect } from '@open-wc/testing';
import icons from 'simple-icons/icons.json';
import { WALLET_MARKS } from './marks';

function pathElement(d: string): SVGPathElement {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', d);
  svg.append(path);
  document.body.append(svg);
  return path;
}

// Simple Icons' own Apple Pay mark, read from the package's files: its one SVG and its colour from the data file
// (importing 'simple-icons' itself would load every icon, 5 MB of script, into the test browser).
const simpleIcons = new URL('../../node_modules/simple-icons/', import.meta.url);

async function simpleIcon(slug: string): Promise<{ path: string; hex: string }> {
  const svg = await fetch(new URL(`icons/${slug}.svg`, simpleIcons)).then((response) => response.text());
  const path = new DOMParser().parseFromString(svg, 'image/svg+xml').querySelector('path')?.getAttribute('d');
  const hex = icons.find((icon) => icon.slug === slug)?.hex;
  if (!path || !hex) throw new Error(`simple-icons has no ${slug} mark`);
  return { path, hex };
}

describe('wallet marks', () => {
  afterEach(() => document.querySelectorAll('body > svg').forEach((svg) => svg.remove()));

  it("the rounded Apple Pay wordmark draws Simple Icons' own within a tenth of a unit everywhere", async () => {
    const siApplepay = await simpleIcon('applepay');
    const original = pathElement(siApplepay.path);
    const rounded = pathElement(WALLET_MARKS.applepay.path);
    expect(WALLET_MARKS.applepay.path.length).to.be.below(siApplepay.path.length * 0.7);
    expect(WALLET_MARKS.applepay.color).to.equal(`#${siApplepay.hex}`);
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
  });
});
