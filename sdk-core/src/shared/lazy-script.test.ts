/**
 * Lazy scripts (lazy-script.ts): without a build the source is used; built, the script is loaded once with its SRI
 * hash, hands its value over and leaves no element behind; one the browser refuses (a wrong hash) is not run, fails,
 * and is tried again on the next call.
 */
import { expect } from '@open-wc/testing';
import { lazyScript } from './lazy-script';

const FIXTURE = new URL('../testing/lazy-script-fixture.js', import.meta.url);
const base = new URL('.', FIXTURE).href;
const globals = globalThis as { __SVC_LAZY__?: Record<string, { file: string; integrity: string }> };

async function sri(url: URL): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-384', await (await fetch(url)).arrayBuffer());
  return `sha384-${btoa(String.fromCharCode(...new Uint8Array(digest)))}`;
}

const scripts = () => document.head.querySelectorAll(`script[src^="${FIXTURE.href}"]`).length;

describe('lazyScript', () => {
  afterEach(() => delete globals.__SVC_LAZY__);

  it('takes the source module when there is no build', async () => {
    expect(await lazyScript('fixture', base, () => Promise.resolve('from source'))).to.equal('from source');
    expect(scripts()).to.equal(0);
  });

  it('loads the built script once with its integrity and gets its value, leaving no script element', async () => {
    globals.__SVC_LAZY__ = { fixture: { file: 'lazy-script-fixture.js', integrity: await sri(FIXTURE) } };
    const fromSource = () => Promise.reject(new Error('the source must not be used once built'));
    const first = lazyScript<{ answer: number }>('fixture', base, fromSource);
    const second = lazyScript<{ answer: number }>('fixture', base, fromSource);
    expect(scripts()).to.equal(1);
    expect(await first).to.deep.equal({ answer: 42 });
    expect(await second).to.equal(await first);
    expect(scripts()).to.equal(0);
  });

  it('fails when the script does not match its hash, and tries again on the next call', async () => {
    // Another URL of the same file: one load per URL and page.
    globals.__SVC_LAZY__ = { refused: { file: 'lazy-script-fixture.js?again', integrity: `sha384-${btoa('x'.repeat(48))}` } };
    let error: unknown = null;
    await lazyScript('refused', base, () => Promise.resolve(null)).catch((caught: unknown) => (error = caught));
    expect(String(error)).to.contain('could not be loaded');
    expect(scripts()).to.equal(0);
    globals.__SVC_LAZY__ = { refused: { file: 'lazy-script-fixture.js?again', integrity: await sri(FIXTURE) } };
    expect(await lazyScript('refused', base, () => Promise.resolve(null))).to.deep.equal({ answer: 42 });
  });
});
