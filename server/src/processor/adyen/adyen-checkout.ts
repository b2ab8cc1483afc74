import adyen from '@adyen/api-library';
import type { Types } from '@adyen/api-library';

const { CheckoutAPI, Client, EnvironmentEnum, HttpURLConnectionClient } = adyen;

/** The Checkout API calls the connector makes, on Adyen's own Node library. */
export type CheckoutApis = Pick<InstanceType<typeof CheckoutAPI>, 'PaymentsApi' | 'ModificationsApi'>;
export type CheckoutTypes = typeof Types.checkout;

/** The library's own Checkout base (`https://checkout-test.adyen.com/v72`, or the live one), replaced by the operator's. */
const LIBRARY_CHECKOUT_BASE = /^https:\/\/checkout-(?:test|live)[^/]*\/v\d+/;

/**
 * The library's HTTP client, sending to `checkoutUrl` (ADYEN_CHECKOUT_URL: Adyen's test or live Checkout API v71 base,
 * or a test double) instead of the base the library was built with: the operator chooses the endpoint and the API
 * version, never the library's defaults.
 */
class OperatorEndpointClient extends HttpURLConnectionClient {
  constructor(private readonly checkoutUrl: string) {
    super();
  }

  override request(...[endpoint, ...rest]: Parameters<InstanceType<typeof HttpURLConnectionClient>['request']>): Promise<string> {
    if (!LIBRARY_CHECKOUT_BASE.test(endpoint)) throw new Error(`the Adyen connector sends only to the Checkout API, not ${new URL(endpoint).host}`);
    return super.request(endpoint.replace(LIBRARY_CHECKOUT_BASE, this.checkoutUrl.replace(/\/+$/, '')), ...rest);
  }
}

/** The Checkout API of one Adyen account, authenticated with its API key (`X-API-Key`). */
export function checkoutApis(account: { apiKey: string; checkoutUrl: string }): CheckoutApis {
  // TEST only picks the library's base URL, which OperatorEndpointClient replaces with the operator's (live or test).
  const client = new Client({ apiKey: account.apiKey, environment: EnvironmentEnum.TEST }, new OperatorEndpointClient(account.checkoutUrl));
  return new CheckoutAPI(client);
}
