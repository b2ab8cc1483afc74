/**
 * The simulated bank page's script (`/pay-assets/bank.js`): each button sends its answer (`POST /authentication/:id`),
 * then the page goes back to the link's payment page (`returnUrl`), or, inside a widget's dialog, says it has finished
 * (the widget learns the outcome from the transaction's update). The texts come from the server, in the page's language.
 */
import { answerAuthenticationPath, fillPath } from '@svc/protocol/light';

const main = document.getElementById('page') as HTMLElement;
const id = main.dataset['authenticationId'] ?? '';
const status = document.getElementById('bank-status') as HTMLElement;
const buttons = Array.from(main.querySelectorAll<HTMLButtonElement>('button[data-result]'));

async function answer(result: string): Promise<void> {
  for (const button of buttons) button.disabled = true;
  try {
    const response = await fetch(fillPath(answerAuthenticationPath, { authenticationId: id }), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ result }),
    });
    if (!response.ok) throw new Error(`answer refused (${response.status})`);
    const body = (await response.json()) as { returnUrl?: unknown };
    if (typeof body.returnUrl === 'string') {
      location.assign(body.returnUrl);
      return;
    }
    const heading = document.createElement('h1');
    heading.textContent = main.dataset['finishedHeading'] ?? '';
    const text = document.createElement('p');
    text.textContent = main.dataset['finishedText'] ?? '';
    text.setAttribute('role', 'status');
    main.replaceChildren(heading, text);
  } catch {
    status.textContent = main.dataset['failedText'] ?? '';
    for (const button of buttons) button.disabled = false;
  }
}

for (const button of buttons) button.addEventListener('click', () => void answer(button.dataset['result'] ?? 'fail'));
