/**
 * Reads a message as an SMTP server received it (its raw DATA), for tests: the Subject with its RFC 2047 encoded words
 * decoded, and each part of a multipart body with its transfer encoding (base64, quoted-printable) undone.
 */

const headerBlock = (data: string): string => data.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');

/** `=?UTF-8?B?…?=` and `=?UTF-8?Q?…?=` words decoded; the space between two encoded words dropped, as RFC 2047 says. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_word, encoding: string, text: string) =>
      encoding.toLowerCase() === 'b' ? Buffer.from(text, 'base64').toString('utf8') : quotedPrintable(text.replaceAll('_', ' ')),
    );
}

function quotedPrintable(text: string): string {
  const bytes = text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

export function mailSubject(data: string): string {
  return decodeWords(/^Subject: (.*)$/im.exec(headerBlock(data))?.[1] ?? '');
}

export interface MailPart {
  /** `text/plain`, `text/html`… */
  type: string;
  body: string;
}

/** The parts of a multipart message (none for a message of one part). */
export function mailParts(data: string): MailPart[] {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(headerBlock(data))?.[1];
  if (!boundary) return [];
  return data
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => {
      const [head = '', ...rest] = part.replace(/^\r?\n/, '').split(/\r?\n\r?\n/);
      const raw = rest.join('\n\n');
      const encoding = /content-transfer-encoding:\s*(\S+)/i.exec(head)?.[1]?.toLowerCase();
      const body =
        encoding === 'base64' ? Buffer.from(raw.replace(/\s/g, ''), 'base64').toString('utf8') : encoding === 'quoted-printable' ? quotedPrintable(raw) : raw;
      return { type: /content-type:\s*([^;\s]+)/i.exec(head)?.[1]?.toLowerCase() ?? '', body };
    });
}
