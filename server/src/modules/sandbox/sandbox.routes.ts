import { ENDPOINT, type ClockState, type SandboxMessages } from '@svc/protocol';
import type { ServiceDeps } from '../../service-deps';
import { route, type EndpointRoute } from '../../http/endpoint-router';
import { sweepDue } from '../expiry';
import { listMessages } from './messages.queries';
import type { TestClock } from '../../clock';

/** Sandbox-only endpoints: the shared test clock and the message outbox. Mounted only in sandbox mode. */
export function sandboxRoutes(deps: Pick<ServiceDeps, 'db' | 'env' | 'processor' | 'logger'>, clock: TestClock): EndpointRoute[] {
  const state = (): ClockState => ({ now: clock.now().toISOString(), offsetSeconds: clock.offsetMs / 1000 });
  return [
    route(ENDPOINT.getSandboxClock, async ({ res }) => {
      await clock.refresh();
      res.json(state());
    }),
    route(ENDPOINT.advanceSandboxClock, async ({ body, run, send }) => {
      const response = await run(async (tx) => {
        const advanced = await clock.advance(body.seconds, tx);
        return { body: { now: advanced.now.toISOString(), offsetSeconds: advanced.offsetMs / 1000 } satisfies ClockState };
      });
      await clock.refresh();
      // Everything now due happens before the answer, so the next read already shows it.
      await sweepDue({ db: deps.db, processor: deps.processor, env: deps.env, baseUrl: deps.env.PUBLIC_BASE_URL, clock, logger: deps.logger }, clock.now());
      send(response);
    }),
    route(ENDPOINT.listSandboxMessages, async ({ principal, res }) => {
      const rows = await listMessages(deps.db, principal());
      const body: SandboxMessages = {
        messages: rows.map((m) => ({
          messageId: m.id,
          channel: m.channel,
          to: m.recipient,
          body: m.body,
          transactionNumber: m.transactionNumber,
          status: m.status,
          ...(m.encoding === null ? {} : { encoding: m.encoding, segments: m.segments! }),
          ...(m.subject === null ? {} : { subject: m.subject }),
          ...(m.html === null ? {} : { html: m.html }),
          createdAt: m.createdAt.toISOString(),
        })),
      };
      res.json(body);
    }),
  ];
}
