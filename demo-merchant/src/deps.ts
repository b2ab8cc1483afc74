import type { CallbackInbox } from './callback-inbox';
import type { DemoConfig } from './config';
import type { LiveRelay } from './live-relay';
import type { MerchantService } from './merchant-service';
import type { OrderBook } from './orders';

/** What the shop's routes share. */
export interface DemoDeps {
  config: DemoConfig;
  fetchImpl: typeof fetch;
  service: MerchantService;
  orders: OrderBook;
  inbox: CallbackInbox;
  live: LiveRelay;
}
