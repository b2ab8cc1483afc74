import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

export type ContentCoding = 'br' | 'gzip' | 'identity';

/** A built file as loaded (an SDK script, a catalogue, a consumer page's script or style): its bytes and their ETag. */
export interface EncodableFile {
  readonly body: Buffer;
  readonly etag: string;
  /** Its compressed copies written by the build (sdk-core/precompress.mjs, brotli at quality 11), when it wrote them. */
  readonly precompressed?: Encoded | undefined;
}

interface Encoded {
  br: Buffer;
  gzip: Buffer;
}

/**
 * The compressed copies of each loaded file: the build's (`pnpm build` writes them beside every served file), else
 * made once at its first request (off the event loop, in zlib's threads; a catalogue, a `--watch` build) and kept as
 * long as the file is: the files are immutable per version, and a rebuild loads a new file. Brotli at quality 5 then
 * (a few milliseconds for the largest script, within 10 % of quality 11's size).
 */
const copies = new WeakMap<EncodableFile, Promise<Encoded>>();

function encodedCopies(file: EncodableFile): Promise<Encoded> {
  if (file.precompressed) return Promise.resolve(file.precompressed);
  let encoded = copies.get(file);
  if (!encoded) {
    encoded = Promise.all([
      brotliAsync(file.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: file.body.length } }),
      gzipAsync(file.body, { level: 9 }),
    ]).then(([br, gz]) => ({ br, gzip: gz }));
    copies.set(file, encoded);
  }
  return encoded;
}

/** The coding to answer with for `Accept-Encoding`: brotli, else gzip, where accepted (q > 0, directly or by `*`); else none. */
export function chooseCoding(acceptEncoding: string | undefined): ContentCoding {
  const weights = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (!name) continue;
    const q = params.find((param) => param.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const accepted = (coding: ContentCoding) => (weights.get(coding) ?? weights.get('*') ?? 0) > 0;
  if (accepted('br')) return 'br';
  if (accepted('gzip')) return 'gzip';
  return 'identity';
}

/**
 * A built file as the client accepts it (`Accept-Encoding`): its body, its ETag (each coding its own) and the
 * `Content-Encoding` to send (none for the identity). An SRI hash stays the identity bytes' (browsers check it on the
 * decoded body). The route sends it with `Vary: Accept-Encoding` (sendEncoded in the *.routes.ts files).
 */
export async function encodedFile(file: EncodableFile, acceptEncoding: string | undefined): Promise<{ body: Buffer; etag: string; coding: ContentCoding }> {
  const coding = chooseCoding(acceptEncoding);
  if (coding === 'identity') return { body: file.body, etag: file.etag, coding };
  return { body: (await encodedCopies(file))[coding], etag: `${file.etag.slice(0, -1)}-${coding}"`, coding };
}
