import { createHash } from 'node:crypto';
import { LANGUAGES } from '@svc/protocol';
import type { Language } from '@svc/sdk-core/i18n';
import { etagOf } from '../../entity-tag';
import { CATALOGUES } from '../../i18n';

export interface LocaleFile {
  body: Buffer;
  integrity: string;
  etag: string;
}

/** `/sdk/locales/<language>.json` for every language (en included), with the SRI hash and ETag the SDK files have. */
export function localeFiles(): Map<Language, LocaleFile> {
  return new Map(
    LANGUAGES.map((language) => {
      const body = Buffer.from(JSON.stringify(CATALOGUES[language]));
      return [language, { body, integrity: `sha384-${createHash('sha384').update(body).digest('base64')}`, etag: etagOf(body) }];
    }),
  );
}
