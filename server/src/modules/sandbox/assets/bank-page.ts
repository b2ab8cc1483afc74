/**
 * The simulated bank page's script (`/pay-assets/bank.js`): each button sends its answer (`POST /authentication/:id`,
 * protocol's `AnswerAuthenticationRequest`, through the shared `postJson`), then the page goes back to the link's
 * payment page (the `AuthenticationOutcome`'s `returnUrl`), or, inside a widget's dialog, says it has finished (the
 * widget learns the outcome from the transaction's update). The texts come from the server, in the page's language.
 */
import type { AnswerAuthenticationRequest, SdkError } from '@svc/protocol';
import { answerAuthenticationPath, AuthenticationOutcomeWire, fillPath } from '@svc/protocol/light';
import { postJson } from '@svc/sdk-core/shared';

const main = document.getElementById('page') as HTMLElement;
const id = main.dataset['authenticationId'] ?? '';
const status = document.getElementById('bank-status') as HTMLElement;
const buttons = Array.from(main.querySelectorAll<HTMLButtonElement>('button[data-result]'));

/** Any refusal: the page says the answer did not go through (its `failedText`), whatever the problem. */
const REFUSED: SdkError = { code: 'internal_error', message: 'The bank page could not send its answer.' };

async function answer(result: AnswerAuthenticationRequest['result']): Promise<void> {
  for (const button of buttons) button.disabled = true;
  const body: AnswerAuthenticationRequest = { result };
  const answered = await postJson(fillPath(answerAuthenticationPath, { authenticationId: id }), body, {
    what: 'The answer to the bank',
    validator: AuthenticationOutcomeWire,
    onProblem: () => REFUSED,
  });
  if (!answered.ok) {
    status.textContent = main.dataset['failedText'] ?? '';
    for (const button of buttons) button.disabled = false;
    return;
  }
  if (answered.value.returnUrl !== null) {
    location.assign(answered.value.returnUrl);
    return;
  }
  const heading = document.createElement('h1');
  heading.textContent = main.dataset['finishedHeading'] ?? '';
  const text = document.createElement('p');
  text.textContent = main.dataset['finishedText'] ?? '';
  text.setAttribute('role', 'status');
  main.replaceChildren(heading, text);
}

for (const button of buttons) button.addEventListener('click', () => void answer(button.dataset['result'] === 'complete' ? 'complete' : 'fail'));
