/** sdk-core's one suite for every widget's behaviour, run against the iframe SDK's widget page (on this page's origin). */
import type { PaymentMethodName } from '@svc/protocol';
import { waitFor } from '@svc/sdk-core/testing/helpers';
import { describeWidgetBehaviour } from '@svc/sdk-core/testing/widget-behaviour';
import { createIframeSdk } from './iframe-sdk';
import { cardShown, choose, fillCard, widgetDoc } from './widget-under-test';

const LABELS: Record<PaymentMethodName, string> = { card: 'Card', paypal: 'PayPal', applepay: 'Apple Pay', googlepay: 'Google Pay' };

describeWidgetBehaviour('iframe SDK', {
  create: () => createIframeSdk(window, location.origin, { readyMs: 3_000 }),
  cardShown: async (container) => void (await cardShown(container)),
  ready: async (container) =>
    void (await waitFor(() => {
      const doc = widgetDoc(container);
      return doc.getElementById('widget')?.getAttribute('aria-busy') === 'false' && doc.getElementById('retry')?.hidden;
    }, 'the widget ready to pay')),
  fillCard: async (container, number) => fillCard(widgetDoc(container), number),
  choose: async (container, method) => choose(widgetDoc(container), LABELS[method]),
  shownMethods: async (container) => {
    const doc = widgetDoc(container);
    if (doc.getElementById('methods')!.hidden) return [];
    return [...doc.querySelectorAll<HTMLLabelElement>('label.method:not([hidden])')].map((label) => label.textContent!.trim());
  },
  cardFieldsShown: async (container) => !widgetDoc(container).getElementById('card')!.hidden,
  cardNumber: async (container) => widgetDoc(container).getElementById('number') as HTMLInputElement,
  alertText: (container) => widgetDoc(container).getElementById('alert')?.textContent?.trim() ?? '',
});
