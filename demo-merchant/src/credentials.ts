import fs from 'node:fs/promises';
import { ProvisionedMerchantSchema, type ProvisionedMerchant } from '@svc/protocol';

/**
 * The merchant's secrets, read from the file the sandbox writes. Read again when it changes (the sandbox
 * reissues keys when the file was lost), and never sent to the browser.
 */
export class CredentialsStore {
  #cached: { mtimeMs: number; value: ProvisionedMerchant } | null = null;

  constructor(readonly file: string) {}

  async current(): Promise<ProvisionedMerchant | null> {
    let stat;
    try {
      stat = await fs.stat(this.file);
    } catch {
      return null;
    }
    if (this.#cached?.mtimeMs === stat.mtimeMs) return this.#cached.value;
    const parsed = ProvisionedMerchantSchema.safeParse(JSON.parse(await fs.readFile(this.file, 'utf8')));
    if (!parsed.success) return null;
    this.#cached = { mtimeMs: stat.mtimeMs, value: parsed.data };
    return parsed.data;
  }
}
