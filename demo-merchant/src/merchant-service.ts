import { createMerchantClient, type MerchantClient } from '@svc/protocol';
import type { DemoConfig } from './config';
import { CredentialsStore, type DemoMerchant } from './credentials';
import { DemoError } from './demo-error';

export interface MerchantService {
  credentials: CredentialsStore;
  /** The merchant's credentials and an API client that sends its key; 503 until the credentials file exists. */
  connect(): Promise<{ merchant: DemoMerchant; client: MerchantClient }>;
}

export function merchantService(config: DemoConfig, fetchImpl: typeof fetch): MerchantService {
  const credentials = new CredentialsStore(config.DEMO_CREDENTIALS_FILE);
  return {
    credentials,
    async connect() {
      const merchant = await credentials.current();
      if (!merchant) throw new DemoError(503, `No merchant credentials yet: waiting for ${config.DEMO_CREDENTIALS_FILE}.`);
      return { merchant, client: createMerchantClient({ baseUrl: config.SERVICE_URL, apiKey: merchant.apiKey, fetch: fetchImpl }) };
    },
  };
}
