import { z } from 'zod';

const HTTP_URL = 'callbackURL must be an http(s) URL';

/**
 * A callback URL as the service takes it: an http or https URL (the scheme in any letter case), at most 2048
 * characters. The scheme is also a pattern, so the OpenAPI document refuses another scheme as the service does (a URL
 * check alone reaches it only as `format: uri`). Where the service may call it is checked when it is used.
 */
export const CallbackUrlSchema = z
  .url({ protocol: /^https?$/, error: HTTP_URL, abort: true })
  .regex(/^\s*[Hh][Tt][Tt][Pp][Ss]?:\/\//, HTTP_URL)
  .max(2048);
