import { ENDPOINT } from '@svc/protocol';
import type { ServiceDeps } from '../../service-deps';
import { route, type EndpointRoute } from '../../http/endpoint-router';
import { LANGUAGES } from '@svc/protocol';
import { sendPage } from '../consumer-pages';
import { pageLanguage } from '../../i18n';
import { renderTerminalPage } from './terminal-page';
import { cancelOnTerminal, tapOnTerminal, terminalCurrent } from './terminal.service';

/**
 * The sandbox terminal simulator (docs/integrating.md#sandbox): its page, and the same actions as an API for headless tests, with
 * the device ID as `Authorization: Bearer`. Mounted only in sandbox mode (404 in production).
 */
export function terminalRoutes(deps: ServiceDeps): EndpointRoute[] {
  // One page per language, rendered once: `?lang=`, else the browser's Accept-Language, else en (as the hosted page).
  const pages = new Map(LANGUAGES.map((language) => [language, renderTerminalPage(language)]));
  return [
    route(ENDPOINT.terminalSimulator, async ({ req, res }) => {
      const language = pageLanguage({ query: req.query['lang'], acceptLanguage: req.get('accept-language') });
      sendPage(res, deps.env.PUBLIC_BASE_URL, 200, pages.get(language)!);
    }),
    route(ENDPOINT.terminalCurrent, async ({ principal, res }) => {
      res.setHeader('Cache-Control', 'no-store');
      res.json(await terminalCurrent(deps.db, principal(), deps.clock.now()));
    }),
    route(ENDPOINT.terminalTap, ({ body, principal, mutate }) => mutate((tx, context) => tapOnTerminal(tx, deps, principal(), body, context))),
    route(ENDPOINT.terminalCancel, ({ body, principal, mutate }) =>
      mutate(async (tx) => ({ body: await cancelOnTerminal(tx, deps, principal(), body.transactionNumber) })),
    ),
  ];
}
