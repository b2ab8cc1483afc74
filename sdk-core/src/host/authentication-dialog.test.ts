/**
 * The 3-D Secure dialog over a widget, in a document and in a shadow root (Elements): a modal dialog named from the
 * catalogue, focus moved to Cancel and kept inside with real Tab presses, Escape and Cancel said once, the bank's page
 * only from the service's origin, and nothing left behind when it closes (element, listeners, focus given back).
 */
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { EN_WIDGET } from '../shared/i18n/en';
import { waitFor } from '../testing/helpers';
import { Texts } from '../shared/i18n/texts';
import { AuthenticationDialog, isServicePage } from './authentication-dialog';

const texts = new Texts(EN_WIDGET);
let BANK_PAGE = '';

/** A challenge from the test server's fake bank (testing/fake-bank.mjs): its page has the two buttons of the sandbox's. */
async function challengePage(): Promise<string> {
  const response = await fetch('/sdk/sessions/ses_dialog/payments', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer tok_dialog' },
    body: JSON.stringify({ method: 'card', card: { number: '4000000000003220', expMonth: 12, expYear: 2030, cvc: '123' }, amount: 500, currency: 'USD' }),
  });
  return ((await response.json()) as { action: { url: string } }).action.url;
}

describe('AuthenticationDialog', () => {
  let host: HTMLElement;
  let payButton: HTMLButtonElement;
  let cancels: number;
  const open = (parent: ParentNode & Node = host) =>
    new AuthenticationDialog({ parent, url: BANK_PAGE, serviceOrigin: location.origin, texts, onCancel: () => (cancels += 1) });
  const deepActive = (): Element | null => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active;
  };

  before(async () => {
    BANK_PAGE = await challengePage();
  });
  beforeEach(() => {
    cancels = 0;
    host = document.createElement('div');
    payButton = document.createElement('button');
    payButton.textContent = 'Pay';
    document.body.append(payButton, host);
    payButton.focus();
  });
  afterEach(() => {
    host.remove();
    payButton.remove();
  });

  it('is a modal dialog named from the catalogue, showing the bank page in a named frame, with focus on Cancel', () => {
    const dialog = open();
    const element = dialog.element;
    expect(element.open).to.equal(true);
    expect(element.matches(':modal')).to.equal(true);
    expect(element.getAttribute('aria-modal')).to.equal('true');
    expect(document.getElementById(element.getAttribute('aria-labelledby')!)!.textContent).to.equal(EN_WIDGET['auth.dialog']);
    expect(document.getElementById(element.getAttribute('aria-describedby')!)!.textContent).to.equal(EN_WIDGET['auth.intro']);
    const frame = element.querySelector('iframe')!;
    expect(frame.title).to.equal(EN_WIDGET['auth.frame']);
    expect(frame.src).to.equal(BANK_PAGE);
    const cancel = element.querySelector('button')!;
    expect(cancel.textContent).to.equal(EN_WIDGET['auth.cancel']);
    expect(document.activeElement === cancel, 'focus on Cancel').to.equal(true);
    dialog.close();
  });

  it('keeps focus inside while the shopper tabs forwards and backwards', async () => {
    const dialog = open();
    const frame = dialog.element.querySelector('iframe')!;
    const cancel = dialog.element.querySelector('button')!;
    const bank = await waitFor(() => frame.contentDocument?.querySelector('button') && frame.contentDocument, "the bank's page");
    // Every element focus lands on in this document, even for a moment (focus sent back from outside would hide it).
    const outside: string[] = [];
    const record = (event: FocusEvent) => {
      const target = event.composedPath()[0];
      if (!(target instanceof Node) || !dialog.element.contains(target)) outside.push(String((target as Element).outerHTML ?? target).slice(0, 60));
    };
    document.addEventListener('focusin', record, true);
    /** Where focus is: Cancel, a button of the bank's page, or anywhere else (a failure). */
    const where = (): string => {
      const active = deepActive();
      if (active === cancel) return 'Cancel';
      if (active === frame) return bank.activeElement?.localName === 'button' ? bank.activeElement.textContent! : "the bank's page";
      return `elsewhere: ${active?.outerHTML.slice(0, 60)}`;
    };
    const settled = (expected: string) => waitFor(() => where() === expected, `focus on ${expected} (now ${where()})`);
    try {
      const forwards = ['Complete authentication', 'Fail authentication', 'Cancel', 'Complete authentication', 'Fail authentication', 'Cancel'];
      for (const expected of forwards) {
        await sendKeys({ press: 'Tab' });
        // An edge passes focus on to the other end at once (in a task of its own).
        await settled(expected);
      }
      const backwards = ["the bank's page", 'Fail authentication', 'Complete authentication', 'Cancel'];
      for (const expected of backwards) {
        await sendKeys({ press: 'Shift+Tab' });
        await settled(expected);
      }
      expect(outside, 'focus never left the dialog').to.deep.equal([]);
    } finally {
      document.removeEventListener('focusin', record, true);
    }
    payButton.focus(); // focus taken out by a script comes back
    expect(deepActive() === cancel, 'focus on Cancel').to.equal(true);
    dialog.close();
  });

  it('Escape and Cancel end it once; close() removes it and gives focus back', async () => {
    const dialog = open();
    await sendKeys({ press: 'Escape' });
    await waitFor(() => cancels === 1, 'Escape said');
    expect(dialog.element.isConnected, 'it stays until the payment says so').to.equal(true);
    dialog.element.querySelector('button')!.click();
    expect(cancels).to.equal(1);
    dialog.close();
    expect(dialog.element.isConnected).to.equal(false);
    expect(document.activeElement === payButton, 'focus on the pay button').to.equal(true);
    // No listener left behind: nothing it added answers any more.
    payButton.focus();
    expect(document.activeElement === payButton, 'focus on the pay button').to.equal(true);
    await sendKeys({ press: 'Escape' });
    expect(cancels).to.equal(1);
  });

  it('works in a shadow root (Elements), with its styles adopted there', async () => {
    const shadow = host.attachShadow({ mode: 'open' });
    const dialog = open(shadow);
    expect(shadow.contains(dialog.element), 'in the shadow root').to.equal(true);
    expect(shadow.adoptedStyleSheets.length).to.be.greaterThan(0);
    expect(deepActive() === dialog.element.querySelector('button'), 'focus on Cancel').to.equal(true);
    await sendKeys({ press: 'Escape' });
    await waitFor(() => cancels === 1, 'Escape said');
    dialog.close();
    expect(document.activeElement === payButton, 'focus on the pay button').to.equal(true);
  });

  it('speaks another language while open', async () => {
    const dialog = open();
    const he = new Texts(EN_WIDGET);
    he.use('he', (await (await fetch('/sdk/locales/he.json')).json()) as Record<string, string>);
    dialog.setTexts(he);
    expect(dialog.element.dir).to.equal('rtl');
    expect(dialog.element.querySelector('button')!.textContent).to.equal(he.t('auth.cancel'));
    expect(dialog.element.querySelector('button')!.textContent).not.to.equal(EN_WIDGET['auth.cancel']);
    dialog.close();
  });

  it('shows only a page of the service', () => {
    expect(isServicePage(BANK_PAGE, location.origin)).to.equal(true);
    expect(isServicePage('https://bank.example/auth', location.origin)).to.equal(false);
    expect(isServicePage('javascript:alert(1)', location.origin)).to.equal(false);
    expect(
      () => new AuthenticationDialog({ parent: host, url: 'https://evil.example/', serviceOrigin: location.origin, texts, onCancel: () => undefined }),
    ).to.throw(TypeError);
    expect(host.childElementCount).to.equal(0);
  });
});
