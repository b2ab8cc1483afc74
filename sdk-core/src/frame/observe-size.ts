/** Reports a frame page's content size (px, rounded up) to its host, at once and on every real change. */
export function observeSize(doc: Document, report: (height: number, width: number) => void): void {
  let last = '';
  const measure = (): void => {
    const rect = doc.documentElement.getBoundingClientRect();
    const height = Math.ceil(rect.height);
    const width = Math.ceil(rect.width);
    if (`${height}x${width}` === last) return;
    last = `${height}x${width}`;
    report(height, width);
  };
  new ResizeObserver(measure).observe(doc.documentElement);
  measure();
}
