/**
 * The card frame's look in Chromium: the night theme is dark through and through (its colour scheme, the card brand's
 * mark), and no appearance can hide the card fields or the typed number (sdk-elements/README.md#appearance).
 */
import { expect } from '@open-wc/testing';
import { composite, contrastRatio, readColour, type Rgba } from '@svc/sdk-core/frame';
import { resetApiMock, startApiMock } from '@svc/sdk-core/testing/api-mock';
import { waitFor } from '@svc/sdk-core/testing/helpers';
import { frameDoc, input, messagesOf, mountFrame, paste, send, unmountFrame } from '../test/card-frame-host';

/** Sends `appearance` and waits for the frame's answer (its `look`). */
async function look(appearance: unknown) {
  const before = messagesOf('look').length;
  send({ type: 'appearance', appearance });
  return waitFor(() => messagesOf('look')[before], 'the look');
}

/** The least contrast the frame keeps between text in the card fields and what is behind it (README, "Appearance"). */
const MIN_CONTRAST = 3;
const WHITE: Rgba = [255, 255, 255, 1];

/**
 * An appearance an attacker sends to hide the card fields, by what it tries; `clamped`: its sizes are applied, bounded
 * (the others are refused, and the frame says so in its `look`).
 */
const ATTACKS: Record<string, { appearance: unknown; clamped?: true }> = {
  'text at 1% opacity': { appearance: { variables: { colorText: 'rgb(0 0 0 / 1%)' } } },
  'text #ffffff01': { appearance: { variables: { colorText: '#ffffff01' } } },
  'white on white': { appearance: { variables: { colorText: '#ffffff', colorBackground: '#ffffff' } } },
  'white text on the white field': { appearance: { rules: { '.Input': { color: '#ffffff' } } } },
  'text mixed 99% with transparent': { appearance: { variables: { colorText: 'color-mix(in srgb, #1a1a1a, transparent 99%)' } } },
  'a transparent caret': { appearance: { rules: { '.Input': { caretColor: 'transparent' } } } },
  'labels at 2% opacity': { appearance: { rules: { '.Label': { color: 'rgb(26 26 26 / 2%)' } } } },
  'white text once focused': { appearance: { rules: { '.Input:focus': { color: 'white' } } } },
  'a field the colour of its text': { appearance: { rules: { '.Input': { backgroundColor: '#1a1a1a' } } } },
  'a field painted white over dark text by an inset shadow': { appearance: { theme: 'night', rules: { '.Input': { boxShadow: 'inset 0 0 0 24px #f2f4f8' } } } },
  'padding of calc(32px / 0.02)': { appearance: { rules: { '.Input': { padding: 'calc(32px / 0.02)' } } }, clamped: true },
  'a spacing unit of calc(8px / 0.01)': { appearance: { variables: { spacingUnit: 'calc(8px / 0.01)' } }, clamped: true },
  'margins of 2em at 40px': { appearance: { variables: { fontSizeBase: '40px' }, rules: { '.Input': { margin: '2em', padding: '2em' } } } },
};

/** What is behind an element of the frame: its own and its ancestors' backgrounds, over this white test page. */
function backgroundOf(element: Element): Rgba {
  const view = element.ownerDocument.defaultView!;
  const layers: Rgba[] = [];
  for (let node: Element | null = element; node; node = node.parentElement)
    layers.push(readColour(element.ownerDocument, view.getComputedStyle(node).backgroundColor));
  return layers.reduceRight((below, layer) => composite(layer, below), WHITE);
}

/** The contrast of `element`'s text (or caret) against what is behind it. */
function contrastOf(element: Element, property: 'color' | 'caretColor' = 'color'): number {
  const style = element.ownerDocument.defaultView!.getComputedStyle(element);
  const background = backgroundOf(element);
  const value = property === 'caretColor' && style.caretColor === 'auto' ? style.color : style[property];
  return contrastRatio(composite(readColour(element.ownerDocument, value), background), background);
}

describe('card frame look', () => {
  before(() => startApiMock());
  beforeEach(async () => {
    await mountFrame();
    await waitFor(() => messagesOf('ready').length, 'ready');
  });
  afterEach(() => {
    unmountFrame();
    resetApiMock();
  });

  it('night: a dark colour scheme, and a card brand mark that shows on the dark field', async () => {
    await look({ theme: 'night' });
    expect(getComputedStyle(frameDoc().documentElement).colorScheme).to.equal('dark');
    paste('number', '4242424242424242');
    const mark = await waitFor(() => frameDoc().querySelector('#brand svg path'), 'the VISA mark');
    const view = frameDoc().defaultView!;
    const fill = readColour(frameDoc(), view.getComputedStyle(mark).fill);
    const field = readColour(frameDoc(), view.getComputedStyle(input('number')).backgroundColor);
    expect(contrastRatio(fill, field), 'the mark against the field').to.be.at.least(3);
    await look({ theme: 'default' });
    expect(getComputedStyle(frameDoc().documentElement).colorScheme).to.equal('light');
    expect(view.getComputedStyle(mark).fill, "the brand's own colour on a light field").to.equal('rgb(26, 31, 113)');
  });

  for (const [attack, { appearance, clamped }] of Object.entries(ATTACKS)) {
    it(`can never hide the card fields: ${attack}`, async () => {
      const answer = await look(appearance);
      expect(answer.refusals.length > 0, 'refused, and said so').to.equal(!clamped);
      paste('number', '4242424242424242');
      const doc = frameDoc();
      const width = doc.documentElement.clientWidth;
      for (const id of ['number', 'expiry', 'cvc']) {
        const field = input(id);
        field.focus();
        expect(contrastOf(field), `the text typed in ${id}`).to.be.at.least(MIN_CONTRAST);
        expect(contrastOf(field, 'caretColor'), `the caret in ${id}`).to.be.at.least(MIN_CONTRAST);
        expect(contrastOf(doc.querySelector(`label[for="${id}"]`)!), `the label of ${id}`).to.be.at.least(MIN_CONTRAST);
        const box = field.getBoundingClientRect();
        expect(box.left, `${id} starts inside the frame`).to.be.at.least(0);
        expect(box.right, `${id} ends inside the frame`).to.be.at.most(width);
        const style = doc.defaultView!.getComputedStyle(field);
        const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        expect(room, `room for the text typed in ${id}`).to.be.at.least(2 * parseFloat(style.fontSize));
      }
    });
  }
});
