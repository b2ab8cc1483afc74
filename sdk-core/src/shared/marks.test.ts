import { expect } from '@open-wc/testing';
import { siApplepay } from 'simple-icons';
import { WALLET_MARKS } from './marks';

function pathElement(d: string): SVGPathElement {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', d);
  svg.append(path);
  document.body.append(svg);
  return path;
}

describe('wallet marks', () => {
  afterEach(() => document.querySelectorAll('body > svg').forEach((svg) => svg.remove()));

  it("the rounded Apple Pay wordmark draws Simple Icons' own within a tenth of a unit everywhere", () => {
    const original = pathElement(siApplepay.path);
    const rounded = pathElement(WALLET_MARKS.applepay.path);
    expect(WALLET_MARKS.applepay.path.length).to.be.below(siApplepay.path.length * 0.7);
    expect(WALLET_MARKS.applepay.color).to.equal(`#${siApplepay.hex}`);
    const [a, b] = [original.getBBox(), rounded.getBBox()];
    for (const side of ['x', 'y', 'width', 'height'] as const) expect(Math.abs(a[side] - b[side]), side).to.be.below(0.1);
    const length = original.getTotalLength();
    expect(Math.abs(rounded.getTotalLength() - length) / length).to.be.below(0.01);
    // Every point of the rounded outline is near the original outline (sampled every 0.05 units or closer).
    const samples = Math.ceil(length / 0.05);
    const outline = Array.from({ length: samples + 1 }, (_, j) => original.getPointAtLength((j * length) / samples));
    for (let k = 0; k <= 400; k++) {
      const point = rounded.getPointAtLength((k * rounded.getTotalLength()) / 400);
      const nearest = Math.min(...outline.map((other) => Math.hypot(point.x - other.x, point.y - other.y)));
      expect(nearest, `point ${k} (${point.x}, ${point.y})`).to.be.below(0.1);
    }
  });
});
