/**
 * The card form's look with the appearance checker loaded lazily (lazy-look.ts): without an appearance the default look
 * is applied at once, without the checker, and is the one the checker gives; a given appearance is checked before any
 * of it is applied, and the last one asked for is the one applied; when the checker cannot be loaded nothing of the
 * appearance is applied.
 */
import { expect } from '@open-wc/testing';
import { applyCardFormStylesLazily } from './lazy-look';
import { applyCardFormStyles } from './styles';
import { cardFormPage } from '../testing/card-form-page';
import { waitFor } from '../testing/helpers';

const globals = globalThis as { __SVC_LAZY__?: Record<string, { file: string; integrity: string }> };
/** A build whose checker script is not there: any load of it fails. */
const MISSING = { 'appearance-check': { file: 'appearance-check-missing.js', integrity: `sha384-${btoa('x'.repeat(48))}` } };

const frames: HTMLIFrameElement[] = [];

const page = () => cardFormPage(frames);

/** The text of the look's style sheet (the last one adopted). */
const lookOf = (doc: Document): string => [...doc.adoptedStyleSheets.at(-1)!.cssRules].map((rule) => rule.cssText).join('\n');
const numberStyle = (doc: Document) => doc.defaultView!.getComputedStyle(doc.getElementById('number')!);

describe('applyCardFormStylesLazily', () => {
  afterEach(() => {
    delete globals.__SVC_LAZY__;
    for (const frame of frames.splice(0)) frame.remove();
  });

  it('applies the default look at once and without the checker: the look the checker gives for no appearance', async () => {
    globals.__SVC_LAZY__ = MISSING;
    performance.clearResourceTimings();
    const doc = await page();
    const apply = applyCardFormStylesLazily(doc);
    await apply(undefined);
    const checked = await page();
    applyCardFormStyles(checked);
    expect(lookOf(doc)).to.equal(lookOf(checked));
    expect(lookOf(doc)).to.contain('--svc-color-accent: #1456d8');
    // Asked for, the missing script would have left a resource entry (its 404).
    expect(
      performance.getEntriesByType('resource').filter((entry) => entry.name.includes('appearance-check')),
      'no checker asked for',
    ).to.deep.equal([]);
  });

  it('checks a given appearance before applying it, and applies the last one asked for', async () => {
    const doc = await page();
    const apply = applyCardFormStylesLazily(doc);
    const first = apply({ theme: 'night', rules: { '.Input': { backgroundColor: 'rgb(1, 2, 3)' } } });
    const last = apply({ theme: 'flat', rules: { '.Input': { backgroundColor: 'rgb(250, 250, 250)', backgroundImage: 'url(/x.png)' } } });
    await Promise.all([first, last]);
    expect(numberStyle(doc).backgroundColor).to.equal('rgb(250, 250, 250)');
    expect(numberStyle(doc).backgroundImage, 'a refused value is never applied').to.equal('none');
    // No appearance after one: the default look, and the one still on its way is dropped.
    const dropped = apply({ rules: { '.Input': { backgroundColor: 'rgb(240, 240, 240)' } } });
    await apply(undefined);
    await dropped;
    expect(numberStyle(doc).backgroundColor).to.equal('rgb(255, 255, 255)');
  });

  it('keeps the page hidden while the first appearance waits for the checker, never showing the default look first', async () => {
    const doc = await page();
    const apply = applyCardFormStylesLazily(doc);
    const visibility = () => doc.defaultView!.getComputedStyle(doc.documentElement).visibility;
    expect(visibility(), 'no appearance: shown at once').to.equal('visible');
    const first = apply({ rules: { '.Input': { backgroundColor: 'rgb(250, 250, 250)' } } });
    expect(visibility(), 'the checker is on its way').to.equal('hidden');
    await first;
    expect(visibility()).to.equal('visible');
    expect(numberStyle(doc).backgroundColor, 'shown with the look asked for').to.equal('rgb(250, 250, 250)');
    // The checker is there now: a later appearance never hides the page.
    const later = apply({ rules: { '.Input': { backgroundColor: 'rgb(240, 240, 240)' } } });
    expect(visibility()).to.equal('visible');
    await later;
  });

  it('shows the page with the default look when the checker cannot be loaded, and never hides it again', async () => {
    globals.__SVC_LAZY__ = MISSING;
    const doc = await page();
    const apply = applyCardFormStylesLazily(doc);
    const visibility = () => doc.defaultView!.getComputedStyle(doc.documentElement).visibility;
    const failing = apply({ rules: { '.Input': { backgroundColor: 'rgb(1, 2, 3)' } } }).catch(() => undefined);
    expect(visibility()).to.equal('hidden');
    await failing;
    expect(visibility()).to.equal('visible');
    const retried = apply({ rules: { '.Input': { backgroundColor: 'rgb(1, 2, 3)' } } }).catch(() => undefined);
    expect(visibility(), 'the shopper may be typing: the next try changes the look in place').to.equal('visible');
    await retried;
  });

  it('shows the page at once when the default look is asked for after all, and after a while whatever the network does', async () => {
    const doc = await page();
    const never = () => new Promise<never>(() => undefined);
    const visibility = () => doc.defaultView!.getComputedStyle(doc.documentElement).visibility;
    const apply = applyCardFormStylesLazily(doc, undefined, undefined, { hiddenAtMostMs: 100, load: never });
    void apply({ rules: { '.Input': { backgroundColor: 'rgb(250, 250, 250)' } } });
    expect(visibility()).to.equal('hidden');
    await apply(undefined);
    expect(visibility(), 'the default look asked for last: shown at once').to.equal('visible');

    const stalled = await page();
    const view = () => stalled.defaultView!.getComputedStyle(stalled.documentElement).visibility;
    void applyCardFormStylesLazily(stalled, undefined, undefined, { hiddenAtMostMs: 100, load: never })({ rules: {} });
    expect(view()).to.equal('hidden');
    await waitFor(() => view() === 'visible', 'the page shown though the checker never came', 2000);
  });

  it('shows a page given no appearance first, and keeps it shown when an appearance comes later', async () => {
    const doc = await page();
    const apply = applyCardFormStylesLazily(doc, undefined, undefined, { load: () => new Promise<never>(() => undefined) });
    const visibility = () => doc.defaultView!.getComputedStyle(doc.documentElement).visibility;
    await apply(undefined);
    void apply({ rules: { '.Input': { backgroundColor: 'rgb(250, 250, 250)' } } });
    expect(visibility()).to.equal('visible');
  });

  it('applies nothing of an appearance whose checker cannot be loaded, and says so', async () => {
    globals.__SVC_LAZY__ = MISSING;
    const doc = await page();
    const apply = applyCardFormStylesLazily(doc);
    const before = lookOf(doc);
    let failed: unknown = null;
    await apply({ rules: { '.Input': { backgroundColor: 'rgb(1, 2, 3)' } } }).catch((error: unknown) => (failed = error));
    expect(String(failed)).to.contain('could not be loaded');
    expect(lookOf(doc)).to.equal(before);
    expect(numberStyle(doc).backgroundColor).to.equal('rgb(255, 255, 255)');
  });
});
