/**
 * Every event listener added while the spy is on, and whether it was removed: `live()` names those still in place on
 * what outlives a widget (the window, the document, an element still on the page), so a test can assert that a
 * widget's destroy (or its element leaving the page) left none behind. A removal counts only for the listener it
 * names (same target, type, function and capture, as the browser matches them); a `once` listener that ran, and one
 * whose `signal` was aborted, are gone as the browser has them gone.
 */
interface Added {
  target: EventTarget;
  type: string;
  listener: EventListenerOrEventListenerObject;
  capture: boolean;
}

export interface ListenerSpy {
  /**
   * The listeners still in place on the window, the document, a connected node or one of `also` (e.g. the widget's
   * element, which a page may keep after it left): `window message`, `document click`, `<svc-ecom-sdk-elements> svc-error`…
   */
  live(also?: EventTarget[]): string[];
  restore(): void;
}

const captureOf = (options?: boolean | EventListenerOptions): boolean => (typeof options === 'boolean' ? options : options?.capture === true);

function outlivesWidget(target: EventTarget): boolean {
  return target === window || target === document || (target instanceof Node && target.isConnected);
}

function nameOf(target: EventTarget): string {
  if (target === window) return 'window';
  if (target === document) return 'document';
  if (target instanceof Element) return `<${target.localName}${target.id ? `#${target.id}` : ''}>`;
  return target.constructor.name;
}

export function spyOnListeners(): ListenerSpy {
  const { addEventListener: add, removeEventListener: remove } = EventTarget.prototype;
  const added: Added[] = [];
  const forget = (entry: Added): void => {
    const index = added.indexOf(entry);
    if (index >= 0) added.splice(index, 1);
  };
  const find = (target: EventTarget, type: string, listener: EventListenerOrEventListenerObject, capture: boolean): Added | undefined =>
    added.find((entry) => entry.target === target && entry.type === type && entry.listener === listener && entry.capture === capture);
  EventTarget.prototype.addEventListener = function (
    this: EventTarget,
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions,
  ) {
    const capture = captureOf(options);
    if (listener && !find(this, type, listener, capture)) {
      const entry: Added = { target: this, type, listener, capture };
      added.push(entry);
      const once = typeof options === 'object' && options.once === true;
      if (once) {
        // The browser drops it after its first call: so does the spy (a listener of its own, in front of it).
        add.call(this, type, () => forget(entry), { once: true, capture });
      }
      if (typeof options === 'object' && options.signal) add.call(options.signal, 'abort', () => forget(entry), { once: true });
    }
    add.call(this, type, listener, options);
  };
  EventTarget.prototype.removeEventListener = function (
    this: EventTarget,
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | EventListenerOptions,
  ) {
    const entry = listener ? find(this, type, listener, captureOf(options)) : undefined;
    if (entry) forget(entry);
    remove.call(this, type, listener, options);
  };
  return {
    live: (also = []) =>
      added
        .filter((entry) => outlivesWidget(entry.target) || also.includes(entry.target))
        .map((entry) => `${nameOf(entry.target)} ${entry.type}`)
        .sort(),
    restore: () => Object.assign(EventTarget.prototype, { addEventListener: add, removeEventListener: remove }),
  };
}
