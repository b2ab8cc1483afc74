/**
 * The iframe widget's look in Chromium: as in Elements' card frame (sdk-elements/src/card-frame.look.test.ts), no
 * appearance the merchant page passes can hide the card fields, their labels or the typed number, or push a field out
 * of the widget (sdk-core's bounded look, which both apply). The widget page loads its appearance checker when it is
 * given an appearance (a lazy script, sdk-core's frame/lazy-look.ts), so each case measures once it has.
 */
import { expect } from '@open-wc/testing';
import type { ServiceFrontEndSDK } from '@svc/sdk-core/host';
import { composite, contrastRatio, readColour, type Rgba } from '@svc/sdk-core/frame';
import { resetWarnings } from '@svc/sdk-core/shared';
import { resetApiMock, startApiMock } from '@svc/sdk-core/testing/api-mock';
import { waitFor } from '@svc/sdk-core/testing/helpers';
import { createIframeSdk } from './iframe-sdk';
import { cardShown, fillCard } from './widget-under-test';

const MIN_CONTRAST = 3;
const WHITE: Rgba = [255, 255, 255, 1];

const ATTACKS: Record<string, unknown> = {
  'text at 1% opacity': { variables: { colorText: 'rgb(0 0 0 / 1%)' } },
  'text #ffffff01': { variables: { colorText: '#ffffff01' } },
  'white on white': { variables: { colorText: '#ffffff', colorBackground: '#ffffff' } },
  'text mixed 99% with transparent': { variables: { colorText: 'color-mix(in srgb, #1a1a1a, transparent 99%)' } },
  'a transparent caret': { rules: { '.Input': { caretColor: 'transparent' } } },
  'labels at 2% opacity': { rules: { '.Label': { color: 'rgb(26 26 26 / 2%)' } } },
  'padding of calc(32px / 0.02)': { rules: { '.Input': { padding: 'calc(32px / 0.02)' } } },
};

/** What is behind an element: its own and its ancestors' backgrounds, over a white page. */
function backgroundOf(element: Element): Rgba {
  const view = element.ownerDocument.defaultView!;
  const layers: Rgba[] = [];
  for (let node: Element | null = element; node; node = node.parentElement)
    layers.push(readColour(element.ownerDocument, view.getComputedStyle(node).backgroundColor));
  return layers.reduceRight((below, layer) => composite(layer, below), WHITE);
}

function contrastOf(element: Element, property: 'color' | 'caretColor' = 'color'): number {
  const style = element.ownerDocument.defaultView!.getComputedStyle(element);
  const background = backgroundOf(element);
  const value = property === 'caretColor' && style.caretColor === 'auto' ? style.color : style[property];
  return contrastRatio(composite(readColour(element.ownerDocument, value), background), background);
}

/**
 * Until the widget page has loaded its appearance checker (served: a 404 never counts) and shows the look it gave: its
 * script's element is gone once the script has run, and the look is applied in the same turn (lazy-script.ts hands
 * the checker over as the element goes), when the page is shown again.
 */
function checkerLoaded(doc: Document): Promise<unknown> {
  const file = '/appearance-check.js';
  const served = () =>
    doc
      .defaultView!.performance.getEntriesByType('resource')
      .some((entry) => new URL(entry.name).pathname.endsWith(file) && (entry as PerformanceResourceTiming).responseStatus === 200);
  return waitFor(
    () => served() && !doc.querySelector(`script[src$="${file}"]`) && doc.defaultView!.getComputedStyle(doc.documentElement).visibility === 'visible',
    'the appearance checker',
  );
}

describe('iframe widget look', () => {
  let sdk: ServiceFrontEndSDK;
  let container: HTMLDivElement;
  before(() => startApiMock());
  beforeEach(() => {
    resetWarnings();
    sdk = createIframeSdk(window, location.origin, { readyMs: 3_000 });
    container = document.createElement('div');
    container.id = 'service-front-end';
    container.style.width = '390px';
    document.body.append(container);
  });
  afterEach(() => {
    sdk.destroy();
    container.remove();
    resetApiMock();
  });

  for (const [attack, appearance] of Object.entries(ATTACKS)) {
    it(`can never hide the card fields: ${attack}`, async () => {
      sdk.config({ mode: 'sandbox', clientId: 'ck_test', appearance } as never);
      sdk.init();
      const doc = await cardShown(container);
      await checkerLoaded(doc);
      fillCard(doc, '4242 4242 4242 4242');
      const width = doc.documentElement.clientWidth;
      for (const id of ['number', 'expiry', 'cvc']) {
        const field = doc.getElementById(id) as HTMLInputElement;
        expect(contrastOf(field), `the text typed in ${id}`).to.be.at.least(MIN_CONTRAST);
        expect(contrastOf(field, 'caretColor'), `the caret in ${id}`).to.be.at.least(MIN_CONTRAST);
        expect(contrastOf(doc.querySelector(`label[for="${id}"]`)!), `the label of ${id}`).to.be.at.least(MIN_CONTRAST);
        const box = field.getBoundingClientRect();
        expect(box.left, `${id} starts inside the widget`).to.be.at.least(0);
        expect(box.right, `${id} ends inside the widget`).to.be.at.most(width);
      }
    });
  }
});
