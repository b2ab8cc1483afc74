import { TerminalCancelRequestSchema, TerminalTapRequestSchema } from '@svc/protocol';
import { Router } from 'express';
import type { AppDeps } from '../../app-deps';
import { authenticate, principalOf } from '../../http/authenticate';
import { runMutation, sendMutation } from '../../http/idempotency';
import { mutationScope } from '../../http/mutation-scope';
import { parseInput } from '../../http/parse';
import { sendPage } from '../consumer-pages';
import { renderTerminalPage } from './terminal-page';
import { cancelOnTerminal, tapOnTerminal, terminalCurrent } from './terminal.service';

/**
 * The sandbox terminal simulator (docs/integrating.md#sandbox): its page, and the same actions as an API for headless tests, with
 * the device ID as `Authorization: Bearer`. Mounted only in sandbox mode (404 in production).
 */
export function terminalRouter(deps: AppDeps): Router {
  const router = Router();
  const deviceOnly = authenticate(deps, { allow: ['device'] });
  const page = renderTerminalPage();

  router.get('/sandbox/terminal', (_req, res) => sendPage(res, deps.env.PUBLIC_BASE_URL, 200, page));

  router.get('/sandbox/terminal/current', deviceOnly, async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await terminalCurrent(deps.db, principalOf(res), deps.clock.now()));
  });

  router.post('/sandbox/terminal/tap', deviceOnly, async (req, res) => {
    const body = parseInput(TerminalTapRequestSchema, req.body);
    const principal = principalOf(res);
    sendMutation(
      res,
      await runMutation(deps.db, deps.clock, mutationScope(req, res, principal), (tx, context) => tapOnTerminal(tx, deps, principal, body, context)),
    );
  });

  router.post('/sandbox/terminal/cancel', deviceOnly, async (req, res) => {
    const body = parseInput(TerminalCancelRequestSchema, req.body);
    const principal = principalOf(res);
    const response = await runMutation(deps.db, deps.clock, mutationScope(req, res, principal), async (tx) => ({
      body: await cancelOnTerminal(tx, deps, principal, body.transactionNumber),
    }));
    sendMutation(res, response);
  });

  return router;
}
