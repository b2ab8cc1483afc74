/**
 * Owns one card frame: its URL (with this widget's instance id), the mount handshake (`ready` from the frame, then
 * `init` with the session), the frame's reported size and validation, and the submit → result exchange. The window
 * listener lives from hostConnected to hostDisconnected; pending submits are settled when the element goes away.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Appearance, BillingAddress, FrameToHostMessage, HostToFrameMessage, SdkError, SdkSession, Transaction } from '@svc/protocol';
import type { CardFieldError } from '@svc/sdk-core/host';
import { hostEnd, randomInstanceId, type CheckedAppearance, type PostMessageChannel } from '@svc/sdk-core/shared';
import type { Language } from '@svc/sdk-core/i18n';
import { ELEMENTS_VERSION } from '../version';

export interface CardValidationState {
  isValid: boolean;
  brand: string | null;
  errors: CardFieldError[];
}

export interface CardFrameCallbacks {
  readyTimeoutMs: () => number;
  onValidation: (validation: CardValidationState) => void;
  onResize: () => void;
  onUnavailable: (error: SdkError) => void;
  /** What the frame accepted of the appearance last sent (and refused), after every appearance it was sent. */
  onLook: (look: CheckedAppearance) => void;
  /**
   * The payment waits for the shopper's bank (3-D Secure): show `url` (a page of the service's origin) until the
   * returned function is called (the payment's result came, or the element left the page); `cancel` when the shopper
   * ends it.
   */
  onAuthentication: (url: string, cancel: () => void) => () => void;
  log: (event: string, detail?: unknown) => void;
}

export interface CardSubmit {
  amount?: number | undefined;
  currency?: string | undefined;
  billingAddress?: BillingAddress | undefined;
}

export type CardOutcome = { ok: true; transaction: Transaction } | { ok: false; error: SdkError };

/** Time the frame gets to say `ready` after its page loaded (the element's `frameTimeoutMs`). */
export const READY_TIMEOUT_MS = 5_000;
/** Longer than the frame's own 30 s request limit, so the frame normally answers first. */
const RESULT_TIMEOUT_MS = 45_000;
/**
 * While the bank's page is on show: longer than the service's 10 minutes, after which it declines the payment
 * `authentication_failed` and the frame answers with that.
 */
const AUTHENTICATION_TIMEOUT_MS = 11 * 60_000;

interface Pending {
  resolve: (outcome: CardOutcome) => void;
  timer: ReturnType<typeof setTimeout>;
  /** Takes the bank's page away (3-D Secure), while it is on show. */
  closeAuthentication?: () => void;
}

export class CardFrameController implements ReactiveController {
  readonly instanceId = randomInstanceId();
  frameReady = false;
  /** Height the frame reported for its content, px. */
  height: number | null = null;
  validation: CardValidationState = { isValid: false, brand: null, errors: [] };

  #iframe: HTMLIFrameElement | null = null;
  #apiBase = '';
  #channel: PostMessageChannel<FrameToHostMessage, HostToFrameMessage> | null = null;
  #session: SdkSession | null = null;
  #debug = false;
  #appearance: Appearance | undefined;
  #language: Language = 'en';
  #readyTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #pending = new Map<string, Pending>();
  #requestCount = 0;
  readonly #readyWaiters = new Set<() => void>();

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly callbacks: CardFrameCallbacks,
  ) {
    host.addController(this);
  }

  /**
   * The frame page for this widget: the server checks `origin` against the client ID and sets frame-ancestors. A
   * language other than `en` goes along (`lang`): the frame starts in it, without waiting for the handshake's `locale`.
   */
  frameUrl(apiBase: string, clientId: string, language: Language = 'en'): string {
    const query = new URLSearchParams({ clientId, origin: location.origin });
    if (language !== 'en') query.set('lang', language);
    return `${apiBase}/sdk/elements/${ELEMENTS_VERSION}/card-frame.html?${query}#instance=${this.instanceId}`;
  }

  /** Called with the rendered iframe (or undefined when it leaves the DOM). */
  attach(iframe: HTMLIFrameElement | undefined, apiBase: string): void {
    if (iframe === this.#iframe && this.#channel?.peerOrigin === new URL(apiBase).origin) return;
    this.#channel?.close();
    this.#channel = null;
    this.#iframe = iframe ?? null;
    this.#apiBase = apiBase;
    this.frameReady = false;
    if (!iframe) return;
    this.#channel = hostEnd(window, {
      peerOrigin: new URL(apiBase).origin,
      instanceId: this.instanceId,
      peerWindow: () => this.#iframe?.contentWindow ?? null,
      onMessage: (message) => this.#onMessage(message),
    });
    this.#channel.open();
  }

  /** The iframe's load event: from now on the frame has readyTimeoutMs to complete the handshake. */
  frameLoaded(): void {
    if (this.frameReady) return;
    clearTimeout(this.#readyTimer);
    this.#readyTimer = setTimeout(() => {
      if (this.frameReady) return;
      this.callbacks.log('frame did not say ready');
      this.callbacks.onUnavailable({
        code: 'frame_unavailable',
        message: `The secure card frame did not start. Check that this page's origin (${location.origin}) is allowed for the client ID, that the page's Content-Security-Policy allows frames from the payment service, and that the service is reachable.`,
      });
    }, this.callbacks.readyTimeoutMs());
  }

  /** Hands the (new) session to the frame as soon as the frame is ready. */
  setSession(session: SdkSession | null, debug: boolean): void {
    this.#session = session;
    this.#debug = debug;
    this.#sendInit();
  }

  /**
   * The appearance for the frame, sent now if it is ready, else with its handshake (every time it says ready: a new
   * frame knows nothing of the last one's look). The frame checks it, applies it, and answers with what it accepted
   * (`onLook`); the answers come in the order of the appearances sent, so the last one is the current appearance's.
   */
  setAppearance(appearance: Appearance | undefined): void {
    this.#appearance = appearance;
    this.#sendAppearance();
  }

  #sendAppearance(): void {
    if (this.frameReady && this.#channel) this.#channel.send({ type: 'appearance', appearance: this.#appearance ?? {} });
  }

  /** Resolves true once the handshake is done, or false after `timeoutMs`. */
  whenReady(timeoutMs = this.callbacks.readyTimeoutMs()): Promise<boolean> {
    if (this.frameReady) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#readyWaiters.delete(waiter);
        resolve(false);
      }, timeoutMs);
      const waiter = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      this.#readyWaiters.add(waiter);
    });
  }

  /** The card payment: the `submit` goes to a ready frame before this returns (not a microtask later), else once it is. */
  submit(payment: CardSubmit): Promise<CardOutcome> {
    if (this.frameReady && this.#channel) return this.#submit(payment, this.#channel);
    return this.whenReady().then((ready) =>
      ready && this.#channel
        ? this.#submit(payment, this.#channel)
        : {
            ok: false,
            error: { code: 'frame_unavailable', message: 'The secure card frame did not load. Check the connection, then pay again.' },
          },
    );
  }

  #submit(payment: CardSubmit, channel: PostMessageChannel<FrameToHostMessage, HostToFrameMessage>): Promise<CardOutcome> {
    this.#requestCount += 1;
    const requestId = `${this.instanceId.slice(0, 8)}-${this.#requestCount}`;
    return new Promise((resolve) => {
      const timer = this.#answerTimer(requestId, RESULT_TIMEOUT_MS);
      this.#pending.set(requestId, { resolve, timer });
      const body = Object.fromEntries(Object.entries(payment).filter(([, value]) => value !== undefined));
      channel.send({ type: 'submit', requestId, ...body });
    });
  }

  /** The frame speaks the widget's language (sent now if the frame is ready, else after its `ready`). */
  setLocale(language: Language): void {
    if (language === this.#language) return;
    this.#language = language;
    if (this.frameReady) this.#channel?.send({ type: 'locale', locale: language });
  }

  reset(): void {
    this.#channel?.send({ type: 'reset' });
  }

  focus(): void {
    this.#channel?.send({ type: 'focus' });
  }

  hostConnected(): void {
    this.#channel?.open();
  }

  hostDisconnected(): void {
    this.#channel?.close();
    clearTimeout(this.#readyTimer);
    for (const [requestId, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.closeAuthentication?.();
      pending.resolve({ ok: false, error: { code: 'frame_unavailable', message: 'The widget was removed from the page during the payment.' } });
      this.#pending.delete(requestId);
    }
  }

  #sendInit(): void {
    if (!this.frameReady || !this.#session || !this.#channel) return;
    const { sessionId, sessionToken, maxInstallments } = this.#session;
    this.#channel.send({ type: 'init', sessionId, sessionToken, apiBase: this.#apiBase, debug: this.#debug, maxInstallments });
    this.callbacks.log('frame init sent', { sessionId, maxInstallments });
  }

  #onMessage(message: FrameToHostMessage): void {
    switch (message.type) {
      case 'ready':
        this.frameReady = true;
        clearTimeout(this.#readyTimer);
        this.callbacks.log('frame ready');
        this.#sendAppearance();
        if (this.#language !== 'en') this.#channel?.send({ type: 'locale', locale: this.#language });
        this.#sendInit();
        for (const waiter of this.#readyWaiters) waiter();
        this.#readyWaiters.clear();
        this.host.requestUpdate();
        return;
      case 'size':
        if (this.height !== message.height) {
          this.height = message.height;
          this.host.requestUpdate();
          this.callbacks.onResize();
        }
        return;
      case 'look':
        this.callbacks.onLook(message);
        return;
      case 'validation':
        this.validation = { isValid: message.isValid, brand: message.brand, errors: message.errors };
        this.callbacks.onValidation(this.validation);
        return;
      case 'authentication': {
        const pending = this.#pending.get(message.requestId);
        if (pending?.closeAuthentication) {
          // Its bank's page is already on show: a repeat is ignored, and the payment goes on waiting for that page.
          this.callbacks.log('authentication repeated');
          return;
        }
        if (!pending || new URL(message.url).origin !== new URL(this.#apiBase).origin) {
          // Refused (no payment of that id in flight, or a page of another origin): the frame is told at once, so its
          // payment ends as cancelled instead of waiting for a dialog never shown.
          this.callbacks.log('authentication refused');
          this.#channel?.send({ type: 'cancelAuthentication', requestId: message.requestId });
          return;
        }
        clearTimeout(pending.timer);
        pending.timer = this.#answerTimer(message.requestId, AUTHENTICATION_TIMEOUT_MS);
        this.callbacks.log('authentication asked');
        pending.closeAuthentication = this.callbacks.onAuthentication(message.url, () => {
          this.callbacks.log('authentication cancelled');
          this.#channel?.send({ type: 'cancelAuthentication', requestId: message.requestId });
        });
        return;
      }
      case 'result': {
        const pending = this.#pending.get(message.requestId);
        if (!pending) return;
        this.#pending.delete(message.requestId);
        clearTimeout(pending.timer);
        pending.closeAuthentication?.();
        pending.resolve(message.ok ? { ok: true, transaction: message.transaction } : { ok: false, error: message.error });
      }
    }
  }

  /** Ends payment `requestId` as unanswered after `ms` (its bank's page, if on show, goes with it). */
  #answerTimer(requestId: string, ms: number): ReturnType<typeof setTimeout> {
    return setTimeout(() => {
      const pending = this.#pending.get(requestId);
      this.#pending.delete(requestId);
      pending?.closeAuthentication?.();
      pending?.resolve({
        ok: false,
        error: { code: 'frame_unavailable', message: 'The secure card frame did not answer. Check the connection and pay again.' },
      });
    }, ms);
  }
}
