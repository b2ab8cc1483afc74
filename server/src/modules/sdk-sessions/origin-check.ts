/**
 * Whether a browser's origin is one a client ID allows: the whole origin (scheme, host and port) equal to one on the
 * list, never a prefix, a suffix or a part of one. `https://shop.example.com` allowed does not let
 * `https://shop.example.com.evil.net`, `https://shop.example.com:8443` or `http://shop.example.com` in. Both sides are
 * serialised origins (the list is normalised when it is stored, a browser sends its Origin header so).
 */
export function originAllowed(allowedOrigins: readonly string[], origin: string | undefined): origin is string {
  return allowedOrigins.some((allowed) => allowed === origin);
}
