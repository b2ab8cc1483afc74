export declare function peersDir(env?: Record<string, string | undefined>): string | null;
export declare function localstripeMissing(): string | null;
export interface Localstripe {
  /** Its base URL, for STRIPE_API_BASE. */
  url: string;
  stop(): Promise<void>;
}
export declare function startLocalstripe(): Promise<Localstripe>;
