import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const ConfigSchema = z.object({
  DEMO_PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DEMO_HOST: z.string().min(1).default('127.0.0.1'),
  /** Where the payment service answers, as the merchant's backend reaches it. */
  SERVICE_URL: z.url().default('http://localhost:8080'),
  /** Where the payment service reaches this shop's callback endpoint. */
  DEMO_PUBLIC_URL: z.url().optional(),
  /** The credentials the sandbox wrote for the demo merchant. */
  DEMO_CREDENTIALS_FILE: z
    .string()
    .min(1)
    .default(path.join(REPO_ROOT, '.data', 'sandbox-credentials.json')),
});
export type DemoConfig = Omit<z.infer<typeof ConfigSchema>, 'DEMO_PUBLIC_URL'> & { DEMO_PUBLIC_URL: string };

/** The demo merchant's only reader of the environment. */
export function loadDemoConfig(source: Record<string, string | undefined> = process.env): DemoConfig {
  const present = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const result = ConfigSchema.safeParse(present);
  if (!result.success) {
    throw new Error(`invalid configuration: ${result.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
  }
  const publicUrl = (result.data.DEMO_PUBLIC_URL ?? `http://localhost:${result.data.DEMO_PORT}`).replace(/\/+$/, '');
  return { ...result.data, SERVICE_URL: result.data.SERVICE_URL.replace(/\/+$/, ''), DEMO_PUBLIC_URL: publicUrl };
}
