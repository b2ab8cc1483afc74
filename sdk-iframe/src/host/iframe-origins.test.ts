/**
 * The widget page on the service's origin (the test server's other origin) as in production: the handshake across
 * origins, forged messages ignored on both sides, and the widget page refused for an unknown client ID or an origin
 * the client ID does not allow.
 */
import { expect } from '@open-wc/testing';
import { IFRAME_MESSAGE_SOURCES } from '@svc/protocol';
import type { SdkError } from '@svc/protocol';
import type { ServiceFrontEndSDK } from '@svc/sdk-core/host';
import { resetWarnings } from '@svc/sdk-core/shared';
import { forge, otherOrigin, waitFor } from '@svc/sdk-core/testing/helpers';
import { createIframeSdk } from './iframe-sdk';
import { instanceIdOf, widgetFrame } from './widget-under-test';

describe('iframe SDK across origins', () => {
  let sdk: ServiceFrontEndSDK;
  let container: HTMLDivElement;
  let errors: SdkError[];
  let paying: boolean[];
  let selected: string[];
  let loaded: Promise<void>;

  beforeEach(() => {
    resetWarnings();
    sdk = createIframeSdk(window, otherOrigin(), { readyMs: 3_000 });
    errors = [];
    paying = [];
    selected = [];
    sdk.error((error) => errors.push(error));
    sdk.paying(({ isPaying }) => paying.push(isPaying));
    loaded = new Promise((resolve) =>
      sdk.paymentSelected(({ paymentMethod }) => {
        selected.push(paymentMethod);
        resolve();
      }),
    );
    container = document.createElement('div');
    container.id = 'service-front-end';
    document.body.append(container);
  });
  afterEach(() => {
    sdk.destroy();
    container.remove();
  });

  it('the widget on the service origin completes the handshake and starts its session', async () => {
    sdk.config({ mode: 'sandbox', clientId: 'ck_test' });
    sdk.init();
    await loaded;
    expect(selected).to.deep.equal(['card']);
    expect(new URL(widgetFrame(container).src).origin).to.equal(otherOrigin());
    expect(widgetFrame(container).contentDocument, 'the widget is cross-origin').to.equal(null);
  });

  it('ignores forged messages: to the page from another window (either origin), to the widget from a window not its parent', async () => {
    sdk.config({ mode: 'sandbox', clientId: 'ck_test' });
    sdk.init();
    await loaded;
    const instanceId = instanceIdOf(container);
    const fromWidget = { source: IFRAME_MESSAGE_SOURCES.widget, instanceId };
    // A perfect widget message, but from a window that is not the widget: the widget's origin, then the page's.
    await forge({ ...fromWidget, type: 'paying', isPaying: true }, { origin: otherOrigin() });
    await forge({ ...fromWidget, type: 'error', error: { code: 'card_declined', message: 'forged' } }, { origin: location.origin });
    await forge({ ...fromWidget, type: 'paymentSelected', paymentMethod: 'paypal' }, { origin: otherOrigin(), targetOrigin: location.origin });
    // A pay for the widget from a sibling frame on the page's origin (frames[0] is the widget): the widget ignores it, so
    // it never says it is paying.
    const pay = { source: IFRAME_MESSAGE_SOURCES.loader, instanceId, type: 'pay', requestId: 'forged-1', amount: 100, currency: 'USD' };
    await forge(pay, { origin: location.origin, frame: 0, targetOrigin: otherOrigin() });
    // A real round trip afterwards proves the widget still answers, and only its own messages counted.
    sdk.pay(() => expect.fail('an empty card does not pay'), { amount: 100, currency: 'USD' });
    await waitFor(() => errors.length === 1, 'the real pay answered');
    expect(errors.map((error) => error.code)).to.deep.equal(['fields_incomplete']);
    expect(paying, 'no payment started, and the forged paying was not taken').to.deep.equal([]);
    expect(selected).to.deep.equal(['card']);
  });

  it('an unknown client ID reaches error as client_id_unknown, and pay afterwards gets the same', async () => {
    sdk.config({ mode: 'sandbox', clientId: 'ck_unknown' });
    sdk.init();
    await waitFor(() => errors.length === 1, 'the refusal');
    expect(errors[0]!.code).to.equal('client_id_unknown');
    expect(errors[0]!.message).to.contain('ck_unknown');
    sdk.pay(() => expect.fail('refused'), { amount: 100, currency: 'USD' });
    await waitFor(() => errors.length === 2, 'pay refused');
    expect(errors[1]!.code).to.equal('client_id_unknown');
  });

  it('an origin the client ID does not allow reaches error as origin_not_allowed, naming the origin', async () => {
    sdk.config({ mode: 'sandbox', clientId: 'ck_forbidden' });
    sdk.init();
    await waitFor(() => errors.length === 1, 'the refusal');
    expect(errors[0]!.code).to.equal('origin_not_allowed');
    expect(errors[0]!.message).to.contain(location.origin);
  });

  it('a widget page that never answers: frame_unavailable', async () => {
    sdk = createIframeSdk(window, `${location.origin}/nowhere`, { readyMs: 300 });
    sdk.error((error) => errors.push(error));
    sdk.config({ mode: 'sandbox', clientId: 'ck_test' });
    sdk.init();
    await waitFor(() => errors.length === 1, 'frame_unavailable');
    expect(errors[0]!.code).to.equal('frame_unavailable');
  });
});
