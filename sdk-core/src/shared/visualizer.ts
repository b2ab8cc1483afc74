/**
 * `visualizer: true`: a timestamped log of the SDK's events inside `#service-front-end-visualizer`. Text only
 * (textContent, no HTML), at most MAX_ENTRIES lines; the host never holds card data, so none can show here.
 */
const MAX_ENTRIES = 200;

export interface Visualizer {
  /** Adds a line: the time, the event's name and its detail as JSON. */
  add(event: string, detail?: unknown): void;
  /** Removes the list from the page. */
  remove(): void;
}

/** Appends the list to `container`. A closure rather than a class, as the channel is: it is in the iframe loader's 5 KB. */
export function createVisualizer(container: HTMLElement): Visualizer {
  const doc = container.ownerDocument;
  const list = doc.createElement('ol');
  list.className = 'svc-visualizer';
  list.setAttribute('aria-label', 'Payment SDK events');
  container.append(list);
  return {
    add(event, detail) {
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
      list.append(item);
      while (list.childElementCount > MAX_ENTRIES) list.firstElementChild?.remove();
    },
    remove() {
      list.remove();
    },
  };
}
