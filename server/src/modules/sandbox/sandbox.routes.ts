import { ClockAdvanceRequestSchema, type ClockState, type SandboxMessages } from '@svc/protocol';
import { Router } from 'express';
import type { ServiceDeps } from '../../service-deps';
import { authenticate, principalOf, type AuthenticateDeps } from '../../http/authenticate';
import { runMutation, sendMutation } from '../../http/idempotency';
import { parseInput } from '../../http/parse';
import { sweepDue } from '../expiry';
import { mutationScope } from '../../http/mutation-scope';
import { listMessages } from './messages.queries';
import type { TestClock } from '../../clock';

/** What the sandbox routes use: credentials to authenticate with, and what a sweep needs. */
export type SandboxRouterDeps = AuthenticateDeps & Pick<ServiceDeps, 'env' | 'clock' | 'processor' | 'logger'>;

/** Sandbox-only endpoints: the shared test clock and the message outbox. Mounted only in sandbox mode. */
export function sandboxRouter(deps: SandboxRouterDeps, clock: TestClock): Router {
  const router = Router();
  const merchantOnly = authenticate(deps, { allow: ['merchant_key', 'branch_key'] });
  const state = (): ClockState => ({ now: clock.now().toISOString(), offsetSeconds: clock.offsetMs / 1000 });

  router.get('/sandbox/clock', merchantOnly, async (_req, res) => {
    await clock.refresh();
    res.json(state());
  });

  router.post('/sandbox/clock/advance', merchantOnly, async (req, res) => {
    const body = parseInput(ClockAdvanceRequestSchema, req.body);
    const principal = principalOf(res);
    const response = await runMutation(deps.db, deps.clock, mutationScope(req, res, principal), async (tx) => {
      const advanced = await clock.advance(body.seconds, tx);
      return { body: { now: advanced.now.toISOString(), offsetSeconds: advanced.offsetMs / 1000 } satisfies ClockState };
    });
    await clock.refresh();
    // Everything now due happens before the answer, so the next read already shows it.
    await sweepDue({ db: deps.db, processor: deps.processor, env: deps.env, baseUrl: deps.env.PUBLIC_BASE_URL, clock, logger: deps.logger }, clock.now());
    sendMutation(res, response);
  });

  router.get('/sandbox/messages', merchantOnly, async (_req, res) => {
    const rows = await listMessages(deps.db, principalOf(res));
    const body: SandboxMessages = {
      messages: rows.map((m) => ({
        messageId: m.id,
        channel: m.channel,
        to: m.recipient,
        body: m.body,
        transactionNumber: m.transactionNumber,
        status: m.status,
        createdAt: m.createdAt.toISOString(),
      })),
    };
    res.json(body);
  });

  return router;
}
