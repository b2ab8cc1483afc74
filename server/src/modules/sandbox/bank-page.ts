import type { Language } from '@svc/sdk-core/i18n';
import { escapeHtml, PAGE_ASSETS, renderPage } from '../consumer-pages';
import { translator } from '../../i18n';
import { renderAuthenticationFinished } from '../authentication-flow';

/** What the simulated bank page shows: the two answers, or that the authentication has ended (and where to go back). */
export type BankPageState = { kind: 'asking'; authenticationId: string } | { kind: 'finished'; returnUrl: string | null };

/**
 * The sandbox's simulated bank page (docs/integrating.md#3-d-secure): in place of the consumer's bank, two buttons,
 * "Complete authentication" and "Fail authentication", in the page's language. Its script (`bank.js`) sends the answer
 * and goes back to the link's page, or says it has finished inside a widget's dialog. Works without the script's
 * texts: every text is here, from the catalogue.
 */
export function renderBankPage(state: BankPageState, language: Language): string {
  if (state.kind === 'finished') return renderAuthenticationFinished(state.returnUrl, language);
  const t = translator(language);
  return renderPage({
    title: t('page.authentication.title'),
    language,
    script: PAGE_ASSETS.bankScript,
    mainData: {
      'authentication-id': state.authenticationId,
      'finished-heading': t('page.authentication.finished'),
      'finished-text': t('page.authentication.finished.text'),
      'failed-text': t('page.unreachable'),
    },
    main: `<h1>${escapeHtml(t('page.authentication.title'))}</h1>
<p>${escapeHtml(t('page.authentication.text'))}</p>
<p class="bank-answers">
<button type="button" class="button" data-result="complete">${escapeHtml(t('page.authentication.complete'))}</button>
<button type="button" class="button secondary" data-result="fail">${escapeHtml(t('page.authentication.fail'))}</button>
</p>
<p id="bank-status" role="status" aria-live="polite"></p>`,
  });
}
