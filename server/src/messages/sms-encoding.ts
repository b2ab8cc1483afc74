/**
 * How an SMS travels: in the GSM 7-bit alphabet (160 characters a segment, 153 in each part of a longer message; the
 * extension characters such as € count twice), or, as soon as one character is outside it (Hebrew, Arabic,
 * Cyrillic…), in UCS-2 (70 UTF-16 units a segment, 67 in each part of a longer one).
 */
export type SmsEncoding = 'gsm7' | 'ucs2';

const GSM7_BASIC = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM7_EXTENSION = '^{}\\[~]|€\f';

export interface SmsShape {
  encoding: SmsEncoding;
  /** Characters as the network counts them: septets in GSM-7, UTF-16 units in UCS-2. */
  units: number;
  segments: number;
}

export function smsShape(text: string): SmsShape {
  let septets = 0;
  for (const character of text) {
    if (GSM7_BASIC.includes(character)) septets += 1;
    else if (GSM7_EXTENSION.includes(character)) septets += 2;
    else return shaped('ucs2', text.length, 70, 67);
  }
  return shaped('gsm7', septets, 160, 153);
}

function shaped(encoding: SmsEncoding, units: number, single: number, part: number): SmsShape {
  return { encoding, units, segments: units <= single ? 1 : Math.ceil(units / part) };
}
