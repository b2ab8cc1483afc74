/**
 * The 3-D Secure dialog over a widget (docs/integrating.md#3-d-secure-and-installments-in-the-widgets): the bank's page, a page of the
 * service's origin, in an iframe inside a modal `<dialog>` named from the catalogue, with a Cancel button. Elements opens
 * it in its shadow root in the merchant page, the iframe SDK's widget page in its own document. It moves focus in (to
 * Cancel), keeps it inside (the edges send it round: the bank's page is another document, whose Tab presses the dialog
 * cannot see), ends on Cancel or Escape (`onCancel`), and on `close()` removes itself and every listener it added and
 * gives focus back to what had it. Nothing in it carries a token: the page's URL names only the authentication.
 */
import type { EN_WIDGET } from '../shared/i18n/en';
import type { Texts } from '../shared/i18n/texts';

export type AuthenticationTextKey = Extract<keyof typeof EN_WIDGET, `auth.${string}`>;

export interface AuthenticationDialogOptions {
  /** Where the dialog goes: the element's shadow root, or the widget page's body. */
  parent: ParentNode & Node;
  /** The bank's page: it must be of `serviceOrigin`. */
  url: string;
  serviceOrigin: string;
  texts: Pick<Texts<AuthenticationTextKey>, 't' | 'language' | 'dir'>;
  /** The shopper ended the dialog (Cancel, Escape); the dialog stays until `close()`. */
  onCancel: () => void;
}

const STYLES = `
.svc-auth { box-sizing: border-box; width: min(30rem, calc(100vw - 1rem)); max-height: calc(100vh - 1rem); padding: 1rem;
  border: 1px solid #6b7280; border-radius: 0.5rem; background: #fff; color: #1f2933; font: 1rem/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; }
.svc-auth::backdrop { background: rgba(17, 24, 39, 0.6); }
.svc-auth-head { display: flex; align-items: flex-start; justify-content: space-between; gap: 0.75rem; }
.svc-auth h2 { margin: 0; font-size: 1.125rem; }
.svc-auth p { margin: 0.5rem 0 0.75rem; }
.svc-auth iframe { display: block; width: 100%; height: min(28rem, calc(100vh - 12rem)); border: 1px solid #d1d5db; border-radius: 0.25rem; }
.svc-auth button { flex: none; min-height: 2.75rem; padding: 0.5rem 1rem; border: 1px solid #374151; border-radius: 0.375rem; background: #fff;
  color: #1f2933; font: inherit; cursor: pointer; }
.svc-auth button:focus-visible, .svc-auth iframe:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
`;

const sheets = new WeakMap<Document | ShadowRoot, CSSStyleSheet>();

/**
 * The dialog's style sheet, adopted once by the root it is drawn in: a constructed sheet (no inline style, for a strict
 * Content-Security-Policy), made by the root's own window (a document takes only those).
 */
function adoptStyles(root: Document | ShadowRoot, doc: Document): void {
  if (sheets.has(root)) return;
  const sheet = new (doc.defaultView ?? window).CSSStyleSheet();
  sheet.replaceSync(STYLES);
  sheets.set(root, sheet);
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}

/** The element that has focus, through shadow roots (the merchant page's pay button, or the widget's own). */
function deepActiveElement(doc: Document): HTMLElement | null {
  let active = doc.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active instanceof HTMLElement ? active : null;
}

/** Whether `url` is a page the dialog may show: https (or http on this same origin in development) on the service's origin. */
export function isServicePage(url: string, serviceOrigin: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.origin === serviceOrigin && (parsed.protocol === 'https:' || parsed.protocol === 'http:');
  } catch {
    return false;
  }
}

/** Throws unless `url` is a page the dialog may show (`isServicePage`). */
export function checkServicePage(url: string, serviceOrigin: string): void {
  if (!isServicePage(url, serviceOrigin)) throw new TypeError(`The bank's page must be on the payment service's origin (${serviceOrigin}).`);
}

let dialogs = 0;

export class AuthenticationDialog {
  readonly element: HTMLDialogElement;
  readonly #frame: HTMLIFrameElement;
  readonly #cancel: HTMLButtonElement;
  readonly #title: HTMLElement;
  readonly #intro: HTMLElement;
  readonly #returnTo: HTMLElement | null;
  readonly #cleanups: Array<() => void> = [];
  #closed = false;
  #cancelled = false;

  constructor(private readonly options: AuthenticationDialogOptions) {
    const { parent, url, serviceOrigin } = options;
    checkServicePage(url, serviceOrigin);
    const doc = parent.ownerDocument ?? (parent as unknown as Document);
    const root = parent.getRootNode() as Document | ShadowRoot;
    adoptStyles(root, doc);
    this.#returnTo = deepActiveElement(doc);
    const id = `svc-auth-${++dialogs}`;
    const make = <K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}): HTMLElementTagNameMap[K] =>
      Object.assign(doc.createElement(tag), props);

    const dialog = make('dialog', { className: 'svc-auth' });
    dialog.setAttribute('aria-modal', 'true');
    dialog.setAttribute('aria-labelledby', `${id}-title`);
    dialog.setAttribute('aria-describedby', `${id}-intro`);
    this.#title = make('h2', { id: `${id}-title` });
    this.#intro = make('p', { id: `${id}-intro` });
    this.#cancel = make('button', { type: 'button' });
    this.#cancel.dataset['authCancel'] = '';
    this.#frame = make('iframe', { src: url });
    this.#frame.setAttribute('referrerpolicy', 'no-referrer');
    // The edges: focus that leaves the bank's page or Cancel lands here and is sent round to the other end (in a task of
    // its own: moving focus again inside the focus event of a Tab press hangs Chromium). Bound once the dialog is open,
    // so that opening it (which focuses Cancel, `autofocus`) sends nothing round.
    const edges: Array<[HTMLElement, () => void]> = [];
    const edge = (to: () => void): HTMLElement => {
      const span = make('span', { tabIndex: 0 });
      span.dataset['authEdge'] = '';
      edges.push([span, to]);
      return span;
    };
    this.#cancel.autofocus = true;
    const head = make('div', { className: 'svc-auth-head' });
    head.append(this.#title, this.#cancel);
    dialog.append(
      edge(() => this.#frame.focus()),
      head,
      this.#intro,
      this.#frame,
      edge(() => this.#cancel.focus()),
    );
    this.element = dialog;
    this.setTexts(options.texts);

    this.#on(this.#cancel, 'click', () => this.#end());
    // Escape on the dialog (not inside the bank's page, another document): the browser's `cancel`, which would close it.
    this.#on(dialog, 'cancel', (event) => {
      event.preventDefault();
      this.#end();
    });
    this.#on(dialog, 'keydown', (event) => {
      if ((event as KeyboardEvent).key !== 'Escape') return;
      event.preventDefault();
      this.#end();
    });
    // Focus that got out anyway (a click on the page behind, a script) comes back to Cancel.
    this.#on(doc, 'focusin', (event) => {
      const target = event.composedPath()[0];
      if (target instanceof Node && !dialog.contains(target) && !(root instanceof ShadowRoot && target === root.host)) this.#cancel.focus();
    });

    parent.appendChild(dialog);
    dialog.showModal();
    this.#cancel.focus();
    for (const [span, to] of edges) this.#on(span, 'focus', () => setTimeout(() => this.#closed || to()));
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** The dialog in another language (the widget's changed while it is open). */
  setTexts(texts: AuthenticationDialogOptions['texts']): void {
    this.element.lang = texts.language;
    this.element.dir = texts.dir;
    this.#title.textContent = texts.t('auth.dialog');
    this.#intro.textContent = texts.t('auth.intro');
    this.#frame.title = texts.t('auth.frame');
    this.#cancel.textContent = texts.t('auth.cancel');
  }

  /** Removes the dialog and its listeners; focus goes back to what had it before, if it is still on the page. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const cleanup of this.#cleanups.splice(0)) cleanup();
    if (this.element.open) this.element.close();
    this.element.remove();
    if (this.#returnTo?.isConnected) this.#returnTo.focus();
  }

  /** Cancel or Escape: said once (Escape may come as a keydown and as the dialog's `cancel`). */
  #end(): void {
    if (this.#closed || this.#cancelled) return;
    this.#cancelled = true;
    this.options.onCancel();
  }

  #on(target: EventTarget, type: string, listener: (event: Event) => void): void {
    target.addEventListener(type, listener);
    this.#cleanups.push(() => target.removeEventListener(type, listener));
  }
}
