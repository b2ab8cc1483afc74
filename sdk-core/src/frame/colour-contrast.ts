/**
 * Colours as the browser paints them, and how far apart two are (WCAG 2's relative luminance and contrast ratio): what
 * the card frame measures of an appearance once applied (readable-look.ts). The browser reads every CSS colour
 * (a computed `rgb()`, `color(srgb …)` of a `color-mix()`, `lab()`…) through a 1 × 1 canvas, in sRGB.
 */

/** An sRGB colour and its opacity: `r`, `g`, `b` from 0 to 255, `a` from 0 to 1. */
export type Rgba = readonly [r: number, g: number, b: number, a: number];

/** `top` painted over `below` (source-over): the result is opaque only when one of them is. */
export function composite([r, g, b, a]: Rgba, [r2, g2, b2, a2]: Rgba): Rgba {
  const alpha = a + a2 * (1 - a);
  if (alpha === 0) return [0, 0, 0, 0];
  const mix = (top: number, under: number): number => (top * a + under * a2 * (1 - a)) / alpha;
  return [mix(r, r2), mix(g, g2), mix(b, b2), alpha];
}

const linear = (channel: number): number => {
  const value = channel / 255;
  return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
};

/** WCAG 2's relative luminance of a colour (its opacity left out), 0 (black) to 1 (white). */
export function luminance([r, g, b]: Rgba): number {
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG 2's contrast ratio of two colours (their opacity left out), from 1 (the same) to 21 (black on white). */
export function contrastRatio(first: Rgba, second: Rgba): number {
  const [light, dark] = [luminance(first), luminance(second)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const canvases = new WeakMap<Document, CanvasRenderingContext2D>();

/** `css` (any CSS colour; anything else reads as transparent) as `doc`'s window paints it. */
export function readColour(doc: Document, css: string): Rgba {
  let context = canvases.get(doc);
  if (!context) {
    const canvas = doc.createElement('canvas');
    canvas.width = canvas.height = 1;
    context = canvas.getContext('2d', { willReadFrequently: true })!;
    canvases.set(doc, context);
  }
  context.clearRect(0, 0, 1, 1);
  context.fillStyle = 'transparent';
  context.fillStyle = css;
  context.fillRect(0, 0, 1, 1);
  const [r = 0, g = 0, b = 0, a = 0] = context.getImageData(0, 0, 1, 1).data;
  return [r, g, b, a / 255];
}
