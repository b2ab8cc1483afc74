import { useEffect, useRef, useState } from 'react';
import { loadServiceSDK } from '@svc/sdk-loader';

export interface ScriptSource {
  /** The payment service's address, e.g. `https://pay.example.com`: the SDK's script is loaded from it. */
  baseUrl: string;
  /** The SDK's version (the one this package was made for by default). */
  version?: string;
  /** The script's SRI hash as you pinned it (by default the one the service publishes). */
  integrity?: string;
}

/**
 * Loads the SDK's script once per page (loadServiceSDK: one load shared by every component and every mount) and
 * says when it is there; a failed load goes to `onFailure` with its message, once per mount.
 */
export function useSdkScript(sdk: 'elements' | 'express', { baseUrl, version, integrity }: ScriptSource, onFailure: (message: string) => void): boolean {
  const [ready, setReady] = useState(false);
  const failed = useRef(onFailure);
  failed.current = onFailure;
  useEffect(() => {
    let mounted = true;
    loadServiceSDK({ baseUrl, sdk, ...(version ? { version } : {}), ...(integrity ? { integrity } : {}) }).then(
      () => mounted && setReady(true),
      (error: Error) => mounted && failed.current(error.message),
    );
    return () => {
      mounted = false;
    };
  }, [sdk, baseUrl, version, integrity]);
  return ready;
}
