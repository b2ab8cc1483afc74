/** sdk-core's one suite for every widget's behaviour, run against Elements' `<svc-ecom-sdk-elements>`. */
import { waitFor } from '@svc/sdk-core/testing/helpers';
import { describeWidgetBehaviour } from '@svc/sdk-core/testing/widget-behaviour';
import { frameOf, part, radios, ready, typeCard } from '../test/element-helpers';
import { createElementsSDK } from './adapter';
import type { SvcEcomSdkElements } from './components/svc-ecom-sdk-elements/svc-ecom-sdk-elements';

const widget = (container: HTMLElement) => waitFor(() => container.querySelector<SvcEcomSdkElements>('svc-ecom-sdk-elements'), 'the element');

describeWidgetBehaviour('Elements', {
  create: () => createElementsSDK(document, location.origin),
  cardShown: async (container) => ready(await widget(container)),
  ready: async (container) => ready(await widget(container)),
  fillCard: async (container, number) => typeCard(await widget(container), { number }),
  choose: async (container, method) =>
    radios(await widget(container))
      .find((radio) => radio.value === method)!
      .click(),
  shownMethods: async (container) => radios(await widget(container)).map((radio) => radio.closest('label')!.textContent!.trim()),
  cardFieldsShown: async (container) => {
    const card = (await widget(container)).shadowRoot!.querySelector<HTMLElement>('[part=card]');
    return card !== null && !card.hidden;
  },
  cardNumber: async (container) => {
    const element = await widget(container);
    return waitFor(() => frameOf(element)?.contentDocument?.querySelector<HTMLInputElement>('#number'), 'the card number field');
  },
  alertText: (container) => {
    const element = container.querySelector<SvcEcomSdkElements>('svc-ecom-sdk-elements');
    return (element && part(element, 'error')?.textContent?.trim()) ?? '';
  },
});
