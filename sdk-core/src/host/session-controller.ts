/**
 * Loads the SDK session for a widget (`POST /sdk/sessions`). A new start aborts the previous request; so does the
 * widget leaving the page (AbortSignal), after which no result is applied.
 */
import type { SdkError, SdkMethodType, SdkSession } from '@svc/protocol';
import { createSession } from './api-client';

/** What the controller needs from its host: Lit's ReactiveControllerHost fits, and so does any small object. */
export interface ControllerHost {
  addController(controller: { hostDisconnected?(): void }): void;
  requestUpdate(): void;
}

export interface SessionParams {
  apiBase: string;
  clientId: string;
  methodType: SdkMethodType;
  mode: 'sandbox' | 'production';
  /** Only the iframe SDK's widget page, which starts its session from the service's origin: the page framing it. */
  embeddingOrigin?: string;
  /** The most payments the card form offers (`config({ maxInstallments })`), capped by the service to what the processor has. */
  maxInstallments?: number;
}

export type SessionState = { status: 'idle' } | { status: 'loading' } | { status: 'ready'; session: SdkSession } | { status: 'error'; error: SdkError };

export class SessionController {
  state: SessionState = { status: 'idle' };
  #abort: AbortController | null = null;
  #settled: Promise<SessionState> = Promise.resolve(this.state);

  constructor(
    private readonly host: ControllerHost,
    private readonly onSettled: (state: SessionState) => void,
  ) {
    host.addController(this);
  }

  start(params: SessionParams): Promise<SessionState> {
    this.#abort?.abort();
    const abort = new AbortController();
    this.#abort = abort;
    this.state = { status: 'loading' };
    this.host.requestUpdate();
    const { apiBase, ...request } = params;
    this.#settled = createSession(apiBase, request, abort.signal).then(
      (result) => {
        if (abort.signal.aborted) return this.state;
        this.state = result.ok ? { status: 'ready', session: result.value } : { status: 'error', error: result.error };
        this.#abort = null;
        this.host.requestUpdate();
        this.onSettled(this.state);
        return this.state;
      },
      () => this.state, // aborted: a newer start or a disconnect owns the state now
    );
    return this.#settled;
  }

  /** The state once the current load (if any) has finished. */
  async settled(): Promise<SessionState> {
    let current: Promise<SessionState>;
    do {
      current = this.#settled;
      await current;
    } while (current !== this.#settled);
    return this.state;
  }

  /** Forget the session (e.g. it expired); the next start loads a new one. */
  clear(): void {
    this.#abort?.abort();
    this.#abort = null;
    this.state = { status: 'idle' };
  }

  hostDisconnected(): void {
    if (this.state.status === 'loading') this.clear();
  }
}
