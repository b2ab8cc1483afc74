import { describe, expect, it } from 'vitest';
import { configurationWarnings, loadEnv } from './env';

const PRODUCTION = { SVC_MODE: 'production', DATABASE_URL: 'postgres://svc@db/svc', PUBLIC_BASE_URL: 'https://pay.example.com' };

describe('configuration warnings', () => {
  it('in production, metrics on every interface: the public one included', () => {
    for (const host of ['0.0.0.0', '::', '[::]', '0:0:0:0:0:0:0:0']) {
      const warnings = configurationWarnings(loadEnv({ ...PRODUCTION, METRICS_PORT: '9464', METRICS_HOST: host }));
      expect(warnings, host).toEqual([expect.stringMatching(/^METRICS_HOST=.* serves \/metrics and the readiness detail on every interface.*firewall/)]);
    }
  });

  it('none for a loopback or an internal address, without a metrics listener, or in sandbox', () => {
    for (const env of [
      { ...PRODUCTION, METRICS_PORT: '9464' },
      { ...PRODUCTION, METRICS_PORT: '9464', METRICS_HOST: '10.0.3.7' },
      { ...PRODUCTION, METRICS_HOST: '0.0.0.0' },
      { METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' },
    ]) {
      expect(configurationWarnings(loadEnv(env)), JSON.stringify(env)).toEqual([]);
    }
  });
});
