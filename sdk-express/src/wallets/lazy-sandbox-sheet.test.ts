/**
 * The sandbox sheet with its code loaded on first use (lazy-sandbox-sheet.ts): a click that comes before the code opens
 * the sheet once it is there, unless the sheet was closed meanwhile (the session failed: that payment has stopped).
 */
import { expect } from '@open-wc/testing';
import { html, LitElement } from 'lit';
import { EN_EXPRESS, Texts } from '@svc/sdk-core/i18n';
import { LazySandboxSheet } from './lazy-sandbox-sheet';

class SheetHost extends LitElement {
  sheet = new LazySandboxSheet(this, new Texts(EN_EXPRESS), () => location.origin);
  override render() {
    return html`${this.sheet.render()}`;
  }
}
customElements.define('lazy-sheet-host', SheetHost);

describe('LazySandboxSheet', () => {
  let host: SheetHost;
  beforeEach(() => {
    host = document.createElement('lazy-sheet-host') as SheetHost;
    document.body.append(host);
  });
  afterEach(() => host.remove());

  it('opens the sheet a click asked for before its code was there', async () => {
    const details = host.sheet.open('paypal', 1050, 'USD', null);
    const dialog = await new Promise<HTMLDialogElement>((resolve) => {
      const look = () => {
        const found = host.renderRoot.querySelector('dialog');
        if (found?.open) resolve(found);
        else setTimeout(look, 20);
      };
      look();
    });
    expect(dialog.open).to.equal(true);
    host.sheet.close();
    expect(await details).to.equal(null);
  });

  it('never opens a sheet closed while its code was on its way', async () => {
    const fresh = document.createElement('lazy-sheet-host') as SheetHost;
    // Not rendered yet: nothing has started loading, so the click below waits for the code.
    const details = fresh.sheet.open('paypal', 1050, 'USD', null);
    fresh.sheet.close();
    document.body.append(fresh);
    try {
      expect(await details).to.equal(null);
      await fresh.updateComplete;
      expect(fresh.renderRoot.querySelector('dialog[open]')).to.equal(null);
    } finally {
      fresh.remove();
    }
  });
});
