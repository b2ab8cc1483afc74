/**
 * The number of payments (installments-field.ts) with its code loaded only when a session offers installments: most
 * merchants offer none, so the card frame's and the widget page's bundles leave it in a script of its own
 * (shared/lazy-script.ts), from the page's own folder. The same calls as the field's: until the field is there (it
 * shows once its code has loaded), the payment carries no `installments`, as when none are offered; a field that
 * cannot be loaded is not shown (the shopper is never offered a choice that cannot be made), and the page's debug log
 * says so.
 */
import { lazyScript } from '../shared/lazy-script';
import type { InstallmentsField } from './installments-field';

type Field = InstanceType<typeof InstallmentsField>;
type InstallmentsTexts = ConstructorParameters<typeof InstallmentsField>[1];

export class LazyInstallmentsField {
  #field: Field | null = null;
  #max = 1;
  #busy = false;

  constructor(
    private readonly form: HTMLElement,
    private texts: InstallmentsTexts,
    /** A line of the page's debug log: what happened, never card data. */
    private readonly log: (event: string) => void = () => undefined,
  ) {}

  setMax(max: number): void {
    this.#max = max;
    if (this.#field) this.#field.setMax(max);
    else if (Number.isSafeInteger(max) && max > 1) void this.#load();
  }

  value(): number | undefined {
    return this.#field?.value();
  }

  setTexts(texts: InstallmentsTexts): void {
    this.texts = texts;
    this.#field?.setTexts(texts);
  }

  setBusy(busy: boolean): void {
    this.#busy = busy;
    this.#field?.setBusy(busy);
  }

  async #load(): Promise<void> {
    let Field: typeof InstallmentsField;
    try {
      Field = await lazyScript<typeof InstallmentsField>('installments-field', this.form.ownerDocument.baseURI, () =>
        import('./installments-field').then((module) => module.InstallmentsField),
      );
    } catch {
      this.log('installments script not loaded');
      return; // the next session offering installments tries again
    }
    if (this.#field) return;
    this.#field = new Field(this.form, this.texts);
    this.#field.setMax(this.#max);
    this.#field.setBusy(this.#busy);
  }
}
