/**
 * The card frame's look in Chromium: the night theme is dark through and through (its colour scheme, the card brand's
 * mark), and no appearance can hide the card fields or the typed number (sdk-elements/README.md#appearance).
 */
import { expect } from '@open-wc/testing';
import { contrastRatio, readColour } from '@svc/sdk-core/frame';
import { resetApiMock, startApiMock } from '@svc/sdk-core/testing/api-mock';
import { waitFor } from '@svc/sdk-core/testing/helpers';
import { frameDoc, input, messagesOf, mountFrame, paste, send, unmountFrame } from '../test/card-frame-host';

/** Sends `appearance` and waits for the frame's answer (its `look`). */
async function look(appearance: unknown) {
  const before = messagesOf('look').length;
  send({ type: 'appearance', appearance });
  return waitFor(() => messagesOf('look')[before], 'the look');
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
});
