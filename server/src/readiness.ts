import type { ReadinessCheck } from '@svc/protocol';

export type { ReadinessCheck };

/** One named check: a verdict and a few words of what it found. It should answer within a second or two. */
export type CheckReadiness = () => ReadinessCheck | Promise<ReadinessCheck>;

/** How long a readiness check may take before it counts as failed. */
const CHECK_TIMEOUT_MS = 2_000;

/**
 * A background worker's sign of life: the worker beats once per tick, and the check fails when the last beat is
 * older than `staleAfterMs` (the worker stopped, or one tick has been stuck that long). Real elapsed time, not the
 * service clock: the sandbox clock jumps, a stuck worker does not.
 */
export class Heartbeat {
  #last: number;

  constructor(
    private readonly staleAfterMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.#last = now();
  }

  /** The worker ticked. */
  readonly beat = (): void => {
    this.#last = this.now();
  };

  check(): ReadinessCheck {
    const ago = Math.round(this.now() - this.#last);
    if (ago <= this.staleAfterMs) return { ok: true, detail: `ticked ${seconds(ago)} ago` };
    return { ok: false, detail: `no tick for ${seconds(ago)} (allowed: ${seconds(this.staleAfterMs)}): the worker stopped or is stuck` };
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * What `GET /readyz` reports: every named check, run together, each bounded by CHECK_TIMEOUT_MS. The instance is ready
 * when every required check passes; a check added with `required: false` is reported and never makes the instance
 * unready (the read replica: without it the list and the audit log answer 503, payments go on).
 */
export class ReadinessChecks {
  readonly #checks = new Map<string, { check: CheckReadiness; required: boolean }>();

  add(name: string, check: CheckReadiness, { required = true }: { required?: boolean } = {}): this {
    this.#checks.set(name, { check, required });
    return this;
  }

  /** A worker's heartbeat, registered as the check `name`. */
  heartbeat(name: string, staleAfterMs: number): Heartbeat {
    const heartbeat = new Heartbeat(staleAfterMs);
    this.add(name, () => heartbeat.check());
    return heartbeat;
  }

  async run(): Promise<{ ok: boolean; checks: Record<string, ReadinessCheck> }> {
    const entries = await Promise.all([...this.#checks].map(async ([name, { check, required }]) => [name, await bounded(check), required] as const));
    return {
      ok: entries.every(([, result, required]) => result.ok || !required),
      checks: Object.fromEntries(entries.map(([name, result]) => [name, result])),
    };
  }
}

async function bounded(check: CheckReadiness): Promise<ReadinessCheck> {
  let timer: NodeJS.Timeout | undefined;
  const outcome = Promise.resolve()
    .then(check)
    .catch((error: unknown) => ({ ok: false, detail: error instanceof Error ? error.message : String(error) }));
  const late = new Promise<ReadinessCheck>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, detail: `no answer within ${CHECK_TIMEOUT_MS / 1000} s` }), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([outcome, late]);
  } finally {
    clearTimeout(timer);
  }
}
