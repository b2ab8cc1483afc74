import qrcode from 'qrcode-generator';

/**
 * An SVG QR code of `text` (a payment link's `qrURL`), made by qrcode-generator: error correction M, byte mode,
 * 8 px modules with the standard 4-module quiet zone, black on white.
 */
export function qrCodeSvg(text: string): string {
  const qr = qrcode(0, 'M');
  qr.addData(text, 'Byte');
  qr.make();
  return qr.createSvgTag({ cellSize: 8, margin: 32 });
}
