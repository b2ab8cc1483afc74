/**
 * The number of payments (installments-field.ts, and its lazy wrapper): a field whose script cannot be loaded is not
 * shown and the page's debug log says so; the numbers are formatted in the texts' language, with one formatter per
 * language however often the field is drawn.
 */
import { expect } from '@open-wc/testing';
import { waitFor } from '../testing/helpers';
import { InstallmentsField } from './installments-field';
import { LazyInstallmentsField } from './lazy-installments-field';

const globals = globalThis as { __SVC_LAZY__?: Record<string, { file: string; integrity: string }> };
const texts = (language: string) => ({ t: () => 'Number of payments', language }) as never;

describe('the number of payments', () => {
  afterEach(() => delete globals.__SVC_LAZY__);

  it('is not shown when its script cannot be loaded, and the debug log says so', async () => {
    globals.__SVC_LAZY__ = { 'installments-field': { file: 'installments-field-missing.js', integrity: `sha384-${btoa('x'.repeat(48))}` } };
    const form = document.createElement('div');
    const logged: string[] = [];
    const field = new LazyInstallmentsField(form, texts('en'), (event) => logged.push(event));
    field.setMax(3);
    await waitFor(() => logged.length, 'the log line');
    expect(logged).to.deep.equal(['installments script not loaded']);
    expect(form.querySelector('select'), 'no field').to.equal(null);
    expect(field.value()).to.equal(undefined);
  });

  it('shows once its script has loaded, and logs nothing', async () => {
    const form = document.createElement('div');
    const logged: string[] = [];
    const field = new LazyInstallmentsField(form, texts('en'), (event) => logged.push(event));
    field.setMax(3);
    await waitFor(() => form.querySelector('select'), 'the field');
    expect(field.value()).to.equal(1);
    expect(logged).to.deep.equal([]);
  });

  it('formats the numbers in the language, with one formatter per language', () => {
    const NumberFormat = Intl.NumberFormat;
    let made = 0;
    Intl.NumberFormat = new Proxy(NumberFormat, {
      construct: (target, args: ConstructorParameters<typeof Intl.NumberFormat>) => {
        made += 1;
        return new target(...args);
      },
    });
    try {
      const form = document.createElement('div');
      const field = new InstallmentsField(form, texts('en'));
      field.setMax(3);
      field.setTexts(texts('en'));
      field.setMax(12);
      expect(made).to.equal(1);
      field.setTexts(texts('ar'));
      field.setTexts(texts('ar'));
      expect(made).to.equal(2);
      const arabic = new NumberFormat('ar');
      expect([...form.querySelectorAll('option')].map((option) => option.textContent).slice(0, 3)).to.deep.equal([1, 2, 3].map((n) => arabic.format(n)));
    } finally {
      Intl.NumberFormat = NumberFormat;
    }
  });
});
