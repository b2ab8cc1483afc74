import { randomUUID } from 'node:crypto';
import { Status, type Currency, type Refund, type Transaction } from '@svc/protocol';
import { z } from 'zod';
import type { MerchantService } from './merchant-service';
import type { PricedCart } from './catalogue';
import { DemoError, refusalOf, type Refusal } from './demo-error';

/** How the customer paid (or is asked to pay) for an order. */
export type OrderChannel = 'elements' | 'iframe' | 'express' | 'link' | 'pos' | 'saved_card';

/**
 * One order of the shop and the transaction that pays it. The payment token stays here, on the shop's server: pages
 * only ever see the view. An order whose commit or capture was refused keeps the refusal, so the back office shows it.
 */
export interface Order {
  orderId: string;
  channel: OrderChannel;
  methodType: string;
  description: string;
  amount: number;
  currency: Currency;
  createdAt: string;
  /** A commit or an action is running: a second one is refused, so one order is never paid twice. */
  busy: boolean;
  /** The commit succeeded (or the transaction was created by the shop itself, for a link or the POS). */
  paid: boolean;
  transactionNumber: string | null;
  transaction: Transaction | null;
  /** From the commit's paymentDetails: an authorization token is what a capture spends, a `token` what a charge spends. */
  token: { type: 'authorization' | 'token'; value: string } | null;
  lastRefusal: (Refusal & { action: string; at: string }) | null;
}

/** What pages get about an order: never the token. */
export interface OrderView {
  orderId: string;
  channel: OrderChannel;
  methodType: string;
  description: string;
  transactionNumber: string | null;
  status: number | null;
  statusName: string | null;
  amount: number;
  currency: Currency;
  createdAt: string;
  /** Cents, from the transaction's authorization; null when it is not one. */
  authorization: { authorizedCents: number; capturedCents: number; releasedCents: number; availableCents: number; status: string } | null;
  /**
   * What the shop holds for this payment: an authorization (capture, void, re-authorize, closeAuth) or a saved card
   * (charge it again). The back office offers those actions and lets the service refuse what it refuses.
   */
  holds: 'authorization' | 'saved_card' | null;
  /** What was given back, what may still be, and each refund (oldest first); 0 and none before a payment. */
  refundedCents: number;
  refundableCents: number;
  refunds: Pick<Refund, 'refundId' | 'amountCents' | 'status' | 'reason' | 'failureCode' | 'createdAt'>[];
  lastRefusal: Order['lastRefusal'];
}

export const OrderIdSchema = z.string().regex(/^ord_[0-9a-f-]{36}$/, 'is not an order id of this shop');
const MAX_ORDERS = 1000;

/**
 * The demo's order book: in memory, only the orders this process created, the oldest forgotten past MAX_ORDERS.
 * A real shop keeps its orders in its database.
 */
export class OrderBook {
  readonly #orders = new Map<string, Order>();
  readonly #listeners = new Set<(view: OrderView) => void>();

  create(cart: Pick<PricedCart, 'description' | 'amount' | 'currency'>, channel: OrderChannel, methodType: string): Order {
    const order: Order = {
      orderId: `ord_${randomUUID()}`,
      channel,
      methodType,
      description: cart.description,
      amount: cart.amount,
      currency: cart.currency,
      createdAt: new Date().toISOString(),
      busy: false,
      paid: false,
      transactionNumber: null,
      transaction: null,
      token: null,
      lastRefusal: null,
    };
    this.#orders.set(order.orderId, order);
    if (this.#orders.size > MAX_ORDERS) this.#orders.delete(this.#orders.keys().next().value!);
    return order;
  }

  /** The order (404 for an unknown one). */
  find(orderId: string): Order {
    const order = this.#orders.get(orderId);
    if (!order) throw new DemoError(404, `No order ${orderId} in this shop.`, 'order_not_found');
    return order;
  }

  /** The order, free for an action (404 for an unknown one, 409 while another action runs). */
  take(orderId: string): Order {
    const order = this.find(orderId);
    if (order.busy) throw new DemoError(409, 'This order is being paid or changed right now.', 'order_busy');
    return order;
  }

  byTransaction(transactionNumber: string): Order | undefined {
    for (const order of this.#orders.values()) if (order.transactionNumber === transactionNumber) return order;
    return undefined;
  }

  list(): OrderView[] {
    return [...this.#orders.values()].reverse().map(viewOf);
  }

  /** Runs one action on the order (marked busy meanwhile); a refusal is kept on the order and thrown on. */
  async act<T>(order: Order, action: string, run: () => Promise<T>): Promise<T> {
    order.busy = true;
    try {
      const result = await run();
      order.lastRefusal = null;
      return result;
    } catch (error) {
      order.lastRefusal = { action, ...refusalOf(error).refusal, at: new Date().toISOString() };
      throw error;
    } finally {
      order.busy = false;
      this.#announce(order);
    }
  }

  /** The transaction as the service last told it (commit, action, websocket or status query). */
  track(order: Order, transaction: Transaction): void {
    const known = order.transaction;
    // The websocket and an action's answer may arrive in any order: an older view never replaces a newer one.
    if (known && known.TransactionNumber === transaction.TransactionNumber && transaction.sequence < known.sequence) return;
    order.transactionNumber = transaction.TransactionNumber;
    order.transaction = transaction;
    this.#announce(order);
  }

  /**
   * Reads the order's transaction from the service again (after a refused action, or a websocket reconnect). When
   * the service cannot say, the order keeps what it knew and its last refusal: nothing is dropped.
   */
  async refresh(order: Order, service: MerchantService): Promise<void> {
    if (!order.transactionNumber) return;
    try {
      const { client } = await service.connect();
      this.track(order, await client.get(order.transactionNumber));
    } catch (error) {
      order.lastRefusal ??= { action: 'status query', ...refusalOf(error).refusal, at: new Date().toISOString() };
      this.#announce(order);
    }
  }

  /** Orders with a transaction that may still change, newest first. */
  open(): Order[] {
    const finished = new Set<number>([
      Status.Approved,
      Status.Declined,
      Status.Cancelled,
      Status.TimedOut,
      Status.Captured,
      Status.Voided,
      Status.AuthorizationClosed,
      Status.Expired,
      Status.Failed,
    ]);
    return [...this.#orders.values()]
      .reverse()
      .filter((o) => o.transactionNumber && !(o.transaction && finished.has(o.transaction.status)))
      .slice(0, 50);
  }

  /** Called with every order that changes. Returns the unsubscribe. */
  onChange(listener: (view: OrderView) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #announce(order: Order): void {
    const view = viewOf(order);
    for (const listener of this.#listeners) listener(view);
  }
}

export function viewOf(order: Order): OrderView {
  const t = order.transaction;
  const hold = t?.authorization ?? null;
  return {
    orderId: order.orderId,
    channel: order.channel,
    methodType: order.methodType,
    description: order.description,
    transactionNumber: order.transactionNumber,
    status: t?.status ?? null,
    statusName: t?.statusName ?? null,
    amount: order.amount,
    currency: order.currency,
    createdAt: order.createdAt,
    authorization: hold && {
      authorizedCents: hold.authorizedCents,
      capturedCents: hold.capturedCents,
      releasedCents: hold.releasedCents,
      availableCents: hold.availableCents,
      status: hold.status,
    },
    holds: order.token?.type === 'authorization' ? 'authorization' : order.token?.type === 'token' ? 'saved_card' : null,
    refundedCents: t?.refundedCents ?? 0,
    refundableCents: t?.refundableCents ?? 0,
    refunds: (t?.refunds ?? []).map(({ refundId, amountCents, status, reason, failureCode, createdAt }) => ({
      refundId,
      amountCents,
      status,
      reason,
      failureCode,
      createdAt,
    })),
    lastRefusal: order.lastRefusal,
  };
}
