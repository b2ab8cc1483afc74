/**
 * `config({ payButtonId })`: a click on that button starts a payment with the button's `data-amount` /
 * `data-currency` (the engine reads them). One click listener on the document, so a button added to the page later
 * counts too; a button inside a form does not submit it.
 */
export type PayButtonData = { amount?: string | undefined; currency?: string | undefined };

/** Calls `onClick` with the button's data on every click on the element with id `id`; returns what stops listening. */
export function listenToPayButton(doc: Document, id: string, onClick: (data: PayButtonData) => void): () => void {
  const listener = (event: MouseEvent): void => {
    const button = event.target instanceof Element ? event.target.closest<HTMLElement>(`#${CSS.escape(id)}`) : null;
    if (!button) return;
    event.preventDefault(); // a pay button inside a form must not submit it
    const { amount, currency } = button.dataset;
    onClick({ amount, currency });
  };
  doc.addEventListener('click', listener);
  return () => doc.removeEventListener('click', listener);
}
