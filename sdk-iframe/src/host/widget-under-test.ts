/** For the tests: the widget page of a container, reached the way a QA script would (by role and accessible name). */
import { waitFor } from '@svc/sdk-core/testing/helpers';

/** The container's iframe, titled `Payment form` (in another language, that language's `widget.iframe`, once the page says it). */
export function widgetFrame(container: Element): HTMLIFrameElement {
  const frame = container.querySelector<HTMLIFrameElement>('iframe[title]');
  if (!frame?.title) throw new Error('no titled iframe in the container');
  return frame;
}

/** The widget page's document (tests whose widget is on the page's own origin). */
export function widgetDoc(container: Element): Document {
  const doc = widgetFrame(container).contentDocument;
  if (!doc) throw new Error('the widget page is on another origin');
  return doc;
}

/** The instance id the loader gave this widget (in the widget URL's hash). */
export function instanceIdOf(container: Element): string {
  return new URLSearchParams(new URL(widgetFrame(container).src).hash.slice(1)).get('instance')!;
}

/** Waits until the widget shows its card form (session loaded, card chosen). */
export function cardShown(container: Element): Promise<Document> {
  return waitFor(() => {
    const doc = widgetFrame(container).contentDocument;
    return doc?.getElementById('card')?.hidden === false ? doc : null;
  }, 'the card form in the widget');
}

/** The input labelled `name` in the widget page. */
export function field(doc: Document, name: string): HTMLInputElement {
  const label = [...doc.querySelectorAll('label')].find((candidate) => candidate.textContent?.trim() === name);
  const input = label?.control ?? null;
  if (!(input instanceof (doc.defaultView as Window & typeof globalThis).HTMLInputElement)) throw new Error(`no field labelled "${name}"`);
  return input;
}

/** Fills the card fields as a paste does (typing into a nested frame focused from script is flaky). */
export function fillCard(doc: Document, number: string, expiry = '12/34', cvc = '123'): void {
  for (const [name, value] of [
    ['Card number', number],
    ['Expiry date (MM/YY)', expiry],
    ['Security code (CVC)', cvc],
  ] as const) {
    const input = field(doc, name);
    input.value = value;
    input.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));
  }
}

/** Clicks the payment method radio named `name` (`Card`, `PayPal`, `Apple Pay`, `Google Pay`). */
export function choose(doc: Document, name: string): void {
  field(doc, name).click();
}
