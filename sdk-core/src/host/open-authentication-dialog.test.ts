/**
 * The 3-D Secure dialog opened while its code loads (open-authentication-dialog.ts): a page of another origin is
 * refused at once, the dialog shows once loaded in the texts last given, and one closed before it arrived never shows.
 */
import { expect } from '@open-wc/testing';
import { EN_WIDGET } from '../shared/i18n/en';
import { Texts } from '../shared/i18n/texts';
import { waitFor } from '../testing/helpers';
import { openAuthenticationDialog } from './open-authentication-dialog';

const texts = new Texts(EN_WIDGET);
const page = `${location.origin}/bank/auth_1`;

describe('openAuthenticationDialog', () => {
  let host: HTMLElement;
  let cancels: number;
  const options = () => ({ parent: host, url: page, serviceOrigin: location.origin, texts, onCancel: () => (cancels += 1) });

  beforeEach(() => {
    cancels = 0;
    host = document.createElement('div');
    document.body.append(host);
  });
  afterEach(() => host.remove());

  it('refuses a page of another origin before loading anything', () => {
    expect(() => openAuthenticationDialog({ ...options(), url: 'https://evil.example/bank' }, location.href)).to.throw(TypeError, /service's origin/);
  });

  it('shows the dialog once its code is there, in the texts given meanwhile, says so, and closes it', async () => {
    let shown = 0;
    const handle = openAuthenticationDialog(options(), location.href, () => (shown += 1));
    const hebrew = new Texts(EN_WIDGET);
    hebrew.use('he', { 'auth.cancel': 'ביטול' });
    handle.setTexts(hebrew);
    const dialog = await waitFor(() => host.querySelector('dialog'), 'the dialog');
    expect(dialog.open).to.equal(true);
    expect(shown).to.equal(1);
    expect(dialog.querySelector('[data-auth-cancel]')!.textContent).to.equal('ביטול');
    handle.close();
    expect(host.querySelector('dialog')).to.equal(null);
    expect(cancels).to.equal(0);
  });

  it('says why when its code cannot be loaded, then ends the authentication as cancelled', async () => {
    const globals = globalThis as { __SVC_LAZY__?: Record<string, { file: string; integrity: string }> };
    globals.__SVC_LAZY__ = { 'authentication-dialog': { file: 'authentication-dialog-missing.js', integrity: `sha384-${btoa('x'.repeat(48))}` } };
    try {
      const failures: unknown[] = [];
      openAuthenticationDialog(options(), location.href, undefined, (error) => failures.push(error));
      await waitFor(() => cancels === 1, 'the cancel');
      expect(failures).to.have.length(1);
      expect(String(failures[0])).to.contain('could not be loaded');
      expect(host.querySelector('dialog')).to.equal(null);
    } finally {
      delete globals.__SVC_LAZY__;
    }
  });

  it('never shows a dialog closed before its code arrived', async () => {
    let shown = 0;
    openAuthenticationDialog(options(), location.href, () => (shown += 1)).close();
    await import('./authentication-dialog'); // the same module the handle waits for
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(host.querySelector('dialog')).to.equal(null);
    expect(shown).to.equal(0);
    expect(cancels).to.equal(0);
  });
});
