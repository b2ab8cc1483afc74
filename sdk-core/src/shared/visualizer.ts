/**
 * `visualizer: true`: a timestamped log of the SDK's events inside `#service-front-end-visualizer`. Text only
 * (textContent, no HTML), at most MAX_ENTRIES lines; the host never holds card data, so none can show here.
 */
const MAX_ENTRIES = 200;

export class Visualizer {
  readonly #list: HTMLOListElement;

  constructor(container: HTMLElement) {
    this.#list = container.ownerDocument.createElement('ol');
    this.#list.className = 'svc-visualizer';
    this.#list.setAttribute('aria-label', 'Payment SDK events');
    container.append(this.#list);
  }

  add(event: string, detail?: unknown): void {
    const doc = this.#list.ownerDocument;
    const now = new Date();
    const item = doc.createElement('li');
    item.dataset['event'] = event;
    const time = doc.createElement('time');
    time.dateTime = now.toISOString();
    time.textContent = now.toISOString().slice(11, 23);
    const name = doc.createElement('strong');
    name.textContent = event;
    item.append(time, ' ', name);
    if (detail !== undefined) {
      const code = doc.createElement('code');
      code.textContent = JSON.stringify(detail);
      item.append(' ', code);
    }
    this.#list.append(item);
    while (this.#list.childElementCount > MAX_ENTRIES) this.#list.firstElementChild?.remove();
  }

  remove(): void {
    this.#list.remove();
  }
}
