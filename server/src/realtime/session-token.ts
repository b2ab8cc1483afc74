import type { Database } from '../db/client';

/** What an SDK session token lets a browser's socket see: one transaction, from the client ID's allowed origins. */
export interface SessionGrant {
  merchantId: string;
  transactionId: string;
  transactionNumber: string;
  /** The client ID's allowed origins: the upgrade's `Origin` must be one of them. */
  allowedOrigins: string[];
}

/** Resolves a `?session=` token to its grant, null for none (sdk-sessions' `sessionTokenResolver`, which main.ts passes in). */
export type SessionTokenResolver = (db: Database, token: string) => Promise<SessionGrant | null>;
