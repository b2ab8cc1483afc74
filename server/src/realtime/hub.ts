import type { ScopeFilter } from './audience';
import type { RealtimeEvent } from './realtime-event';
import type { ScopeSubscription } from './scope-subscription';
import type { SubscriptionSink, TransactionSubscription } from './transaction-subscription';
import type { EventNotice } from '../event-notice';

/**
 * This instance's subscriptions, indexed the way notifications are routed: transactions by number, merchant
 * scopes by merchant, device scopes by device. A connection gets an event once even when several of its
 * subscriptions match; its transaction subscription wins, since it keeps the order across a replay.
 */
export class Hub {
  readonly #byTransaction = new Map<string, Set<TransactionSubscription>>();
  readonly #byMerchant = new Map<string, Set<ScopeSubscription>>();
  readonly #byDevice = new Map<string, Set<ScopeSubscription>>();

  addTransaction(subscription: TransactionSubscription): void {
    add(this.#byTransaction, subscription.transactionNumber, subscription);
  }

  removeTransaction(subscription: TransactionSubscription): void {
    remove(this.#byTransaction, subscription.transactionNumber, subscription);
  }

  addScope(subscription: ScopeSubscription): void {
    const { filter } = subscription;
    if (filter.scope === 'merchant') add(this.#byMerchant, filter.merchantId, subscription);
    else add(this.#byDevice, filter.deviceId, subscription);
  }

  removeScope(subscription: ScopeSubscription): void {
    const { filter } = subscription;
    if (filter.scope === 'merchant') remove(this.#byMerchant, filter.merchantId, subscription);
    else remove(this.#byDevice, filter.deviceId, subscription);
  }

  /** Whether any local subscriber wants this event: only then is its payload read. */
  wants(notice: EventNotice): boolean {
    if (this.#byTransaction.has(notice.transactionNumber)) return true;
    if (notice.deviceId !== null && this.#byDevice.has(notice.deviceId)) return true;
    for (const scope of this.#byMerchant.get(notice.merchantId) ?? []) {
      if (scopeMatches(scope.filter, notice)) return true;
    }
    return false;
  }

  publish(notice: EventNotice, event: RealtimeEvent): void {
    const reached = new Set<SubscriptionSink>();
    for (const subscription of [...(this.#byTransaction.get(notice.transactionNumber) ?? [])]) {
      reached.add(subscription.sink);
      subscription.accept(event);
    }
    const scopes = [...(this.#byMerchant.get(notice.merchantId) ?? []), ...(notice.deviceId === null ? [] : (this.#byDevice.get(notice.deviceId) ?? []))];
    for (const scope of scopes) {
      if (reached.has(scope.sink) || !scopeMatches(scope.filter, notice)) continue;
      reached.add(scope.sink);
      scope.accept(event, notice.transactionId);
    }
  }

  /** Transaction subscriptions (all, or those of these transactions) re-read the store: notifications were lost. */
  catchUp(transactionNumbers?: Iterable<string>): void {
    const sets = transactionNumbers ? [...new Set(transactionNumbers)].map((number) => this.#byTransaction.get(number)) : [...this.#byTransaction.values()];
    for (const subscriptions of sets) {
      for (const subscription of subscriptions ?? []) void subscription.catchUp();
    }
  }

  /** Scope subscriptions re-read the store from `since`: notifications were lost. */
  catchUpScopes(since: Date): void {
    for (const subscriptions of [...this.#byMerchant.values(), ...this.#byDevice.values()]) {
      for (const subscription of subscriptions) void subscription.catchUp(since);
    }
  }

  get size(): { transactions: number; merchants: number; devices: number } {
    return { transactions: this.#byTransaction.size, merchants: this.#byMerchant.size, devices: this.#byDevice.size };
  }
}

/** Device scopes always match their device; merchant scopes match the merchant, and a branch key's only its branch. */
function scopeMatches(filter: ScopeFilter, notice: EventNotice): boolean {
  if (filter.scope === 'device') return filter.deviceId === notice.deviceId;
  return filter.merchantId === notice.merchantId && (filter.branchId === null || filter.branchId === notice.branchId);
}

function add<T>(map: Map<string, Set<T>>, key: string, value: T): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(value);
}

function remove<T>(map: Map<string, Set<T>>, key: string, value: T): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(value);
  if (set.size === 0) map.delete(key);
}
