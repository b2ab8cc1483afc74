import { isPlainOrigin } from '@svc/protocol';
import type { Language } from '@svc/sdk-core/i18n';
import type { Database } from '../../db/client';
import type { Env } from '../../env';
import type { AuthenticationRow } from '../authentication';
import { escapeHtml, renderPage } from '../consumer-pages';
import { translator } from '../../i18n';
import { paymentPageUrl } from '../transactions';
import { findLinkForConsumerById, sessionOriginOf } from './authentication-flow.queries';

type PageDeps = { db: Database; env: Pick<Env, 'PUBLIC_BASE_URL'> };

/** Where a top-level bank page goes back to: the link's payment page; none for a widget's dialog. */
export async function returnUrlOf(deps: PageDeps, authentication: AuthenticationRow): Promise<string | null> {
  if (authentication.sdkSessionId !== null) return null;
  const linkId = await findLinkForConsumerById(deps.db, authentication.transactionId);
  return linkId ? paymentPageUrl(deps.env.PUBLIC_BASE_URL, linkId) : null;
}

/** A widget's dialog frames the page from the merchant page its session belongs to; a link's page is never framed. */
export async function frameAncestorOf(deps: PageDeps, authentication: AuthenticationRow): Promise<string | null> {
  if (authentication.sdkSessionId === null) return null;
  const origin = await sessionOriginOf(deps.db, authentication.sdkSessionId);
  return origin !== null && isPlainOrigin(origin) ? origin : null;
}

/**
 * The page of an authentication that has ended, in the page's language: what a widget's dialog shows once the bank
 * is done (the widget then follows the transaction), with a link back to the payment page when there is one.
 */
export function renderAuthenticationFinished(returnUrl: string | null, language: Language): string {
  const t = translator(language);
  const back = returnUrl ? `\n<p><a class="button" href="${escapeHtml(returnUrl)}">${escapeHtml(t('page.authentication.back'))}</a></p>` : '';
  return renderPage({
    title: t('page.authentication.finished'),
    language,
    main: `<h1>${escapeHtml(t('page.authentication.finished'))}</h1>\n<p>${escapeHtml(t('page.authentication.finished.text'))}</p>${back}`,
  });
}
