import fs from 'node:fs/promises';
import { ProvisionedMerchantSchema } from '@svc/protocol';
import { z } from 'zod';

/** The demo merchant's credentials; `stickerUrl` is there once the service prints its devices' sticker links. */
export const DemoMerchantSchema = ProvisionedMerchantSchema.extend({ stickerUrl: z.string().optional() });
export type DemoMerchant = z.infer<typeof DemoMerchantSchema>;

/**
 * The merchant's secrets, read from the file the sandbox writes. Read again when it changes (the sandbox
 * reissues keys when the file was lost), and never sent to the browser.
 */
export class CredentialsStore {
  #cached: { mtimeMs: number; value: DemoMerchant } | null = null;

  constructor(readonly file: string) {}

  async current(): Promise<DemoMerchant | null> {
    let stat;
    try {
      stat = await fs.stat(this.file);
    } catch {
      return null;
    }
    if (this.#cached?.mtimeMs === stat.mtimeMs) return this.#cached.value;
    const parsed = DemoMerchantSchema.safeParse(JSON.parse(await fs.readFile(this.file, 'utf8')));
    if (!parsed.success) return null;
    this.#cached = { mtimeMs: stat.mtimeMs, value: parsed.data };
    return parsed.data;
  }
}
