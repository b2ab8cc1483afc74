/**
 * The sandbox's wallet sheet (sandbox-sheet.ts) with its code loaded only in sandbox mode: a production page never
 * shows it, so Express's bundle leaves it in a script of its own (sdk-core's shared/lazy-script.ts), served beside
 * sdk.js. Loading starts when the element first renders in sandbox mode, so a click seldom waits for it; a click that
 * comes first opens the sheet once it is there (unless it was closed meanwhile, as when the session failed), and a
 * sheet that cannot be loaded fails that payment.
 */
import { nothing, type LitElement, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { WalletMethod } from '@svc/protocol';
import { SDK_VERSIONS } from '@svc/protocol/light';
import { lazyScript } from '@svc/sdk-core/shared';
import type { ExpressTexts, SandboxSheet, SheetDetails } from './sandbox-sheet';

export class LazySandboxSheet {
  #sheet: SandboxSheet | null = null;
  #load: Promise<SandboxSheet> | null = null;
  /** Bumped by every `close`: a click waiting for the code when it came must not open the sheet after its payment stopped. */
  #closes = 0;

  constructor(
    private readonly host: ReactiveControllerHost & LitElement,
    private readonly texts: ExpressTexts,
    /** The service's base URL: the script is in its /sdk/express/<version>/ folder. */
    private readonly apiBase: () => string,
  ) {}

  /** SandboxSheet's `open`, once its code is there; null, as for a sheet closed, when `close` came meanwhile. */
  async open(method: WalletMethod, cents: number, currency: string, returnFocus: HTMLElement | null): Promise<SheetDetails | null> {
    const closes = this.#closes;
    const sheet = await this.#loaded();
    if (closes !== this.#closes) return null;
    return sheet.open(method, cents, currency, returnFocus);
  }

  setBusy(busy: boolean): void {
    this.#sheet?.setBusy(busy);
  }

  close(): void {
    this.#closes += 1;
    this.#sheet?.close();
  }

  /** The sheet (rendered in sandbox mode only): nothing until its code is there, whose loading this starts. */
  render(): TemplateResult | typeof nothing {
    if (this.#sheet) return this.#sheet.render();
    this.#loaded().catch(() => undefined); // a click tries again, and says why it failed
    return nothing;
  }

  #loaded(): Promise<SandboxSheet> {
    this.#load ??= lazyScript<typeof SandboxSheet>('sandbox-sheet', `${this.apiBase()}/sdk/express/${SDK_VERSIONS.express}/`, () =>
      import('./sandbox-sheet').then((module) => module.SandboxSheet),
    ).then(
      (Sheet) => {
        this.#sheet = new Sheet(this.host, this.texts);
        this.host.requestUpdate();
        return this.#sheet;
      },
      (error: unknown) => {
        this.#load = null;
        throw error;
      },
    );
    return this.#load;
  }
}
