/** The built loader, dist/sdk.js, as a merchant page loads it: the global, the widget, one deprecation warning per page. */
import { expect } from '@open-wc/testing';
import { waitFor } from '@svc/sdk-core/testing/helpers';
import { cardShown, widgetFrame } from './widget-under-test';

function load(): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = '/sdk/iframe/1.0.9/sdk.js';
    script.onload = () => resolve();
    script.onerror = reject;
    document.head.append(script);
  });
}

describe('dist/sdk.js (the loader)', () => {
  it('installs ServiceFrontEndSDK once, mounts the widget, and warns once that it is deprecated for Elements 1.1.1', async () => {
    const warnings: string[] = [];
    const { warn } = console;
    console.warn = (...args: unknown[]) => warnings.push(args.join(' '));
    try {
      await load();
      const sdk = window.ServiceFrontEndSDK!;
      await load();
      expect(window.ServiceFrontEndSDK).to.equal(sdk);
      expect(sdk.version).to.equal('1.0.9');
      expect(warnings.some((warning) => warning.includes('sdk-loaded-twice'))).to.equal(true);
      const container = document.createElement('div');
      container.id = 'service-front-end';
      document.body.append(container);
      const selected: string[] = [];
      sdk.paymentSelected(({ paymentMethod }) => selected.push(paymentMethod));
      sdk.config({ mode: 'sandbox', clientId: 'ck_test' });
      sdk.init();
      expect(widgetFrame(container).title).to.equal('Payment form');
      await cardShown(container);
      await waitFor(() => selected.length === 1, 'paymentSelected');
      // Said by the widget page when it starts (the loader carries only what is needed before it loads), once per page.
      sdk.init();
      await cardShown(container);
      const deprecations = warnings.filter((warning) => warning.includes('deprecated'));
      expect(deprecations).to.have.length(1);
      expect(deprecations[0]).to.contain('sdk-deprecated').and.to.contain('Elements 1.1.1').and.to.contain(`${location.origin}/sdk/elements/1.1.1/sdk.js`);
      sdk.destroy();
      expect(container.querySelector('iframe')).to.equal(null);
    } finally {
      console.warn = warn;
    }
  });
});
