import { renderCardForm } from '../frame/card-form-markup';

/** A same-origin frame holding the card form's markup, laid out; added to `frames`, which the caller removes after each test. */
export async function cardFormPage(frames: HTMLIFrameElement[]): Promise<Document> {
  const frame = document.createElement('iframe');
  frame.style.cssText = 'width:420px;height:400px;border:0';
  document.body.append(frame);
  frames.push(frame);
  const doc = frame.contentDocument!;
  doc.open();
  doc.write('<!doctype html><html><body></body></html>');
  doc.close();
  renderCardForm(doc.body);
  await new Promise((resolve) => requestAnimationFrame(resolve));
  return doc;
}
