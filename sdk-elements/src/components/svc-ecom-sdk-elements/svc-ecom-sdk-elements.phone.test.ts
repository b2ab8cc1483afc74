/** <svc-ecom-sdk-elements> on a 390 px phone, in every language: the method tabs and the card fields fit and line up. */
import { expect } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import { LANGUAGES } from '@svc/protocol/light';
import type { Language } from '@svc/sdk-core/i18n';
import { resetApiMock, startApiMock } from '@svc/sdk-core/testing/api-mock';
import { waitFor } from '@svc/sdk-core/testing/helpers';
import { frameOf, mount, part, radios, ready } from '../../../test/element-helpers';
import type { SvcEcomSdkElements } from './svc-ecom-sdk-elements';

async function speaking(language: Language): Promise<SvcEcomSdkElements> {
  const element = mount();
  element.locale = language;
  await ready(element);
  await waitFor(() => part(element, 'base')!.lang === language, `the widget speaks ${language}`);
  await waitFor(() => language === 'en' || frameOf(element).contentDocument!.documentElement.lang === language, `the card frame speaks ${language}`);
  return element;
}

describe('<svc-ecom-sdk-elements> at 390 px', () => {
  before(async () => {
    await startApiMock();
    await setViewport({ width: 390, height: 844 });
  });
  after(() => setViewport({ width: 800, height: 600 }));
  afterEach(() => {
    document.querySelectorAll('svc-ecom-sdk-elements').forEach((node) => node.remove());
    resetApiMock();
  });

  for (const language of LANGUAGES) {
    it(`${language}: every method tab shows its whole name, inside the widget`, async () => {
      const element = await speaking(language);
      const box = part(element, 'base')!.getBoundingClientRect();
      for (const radio of radios(element)) {
        const tab = radio.closest('label')!;
        const name = tab.textContent!.trim();
        expect(tab.scrollWidth, `the tab "${name}" fits its name`).to.be.at.most(tab.clientWidth);
        const rect = tab.getBoundingClientRect();
        expect(rect.left, `"${name}" starts inside`).to.be.at.least(box.left - 0.5);
        expect(rect.right, `"${name}" ends inside`).to.be.at.most(box.right + 0.5);
      }
    });
  }

  it('ru: the card tab is «Карта», short enough for a phone', async () => {
    const element = await speaking('ru');
    expect(radios(element)[0]!.closest('label')!.textContent!.trim()).to.equal('Карта');
  });
});
