import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from './openapi';

/**
 * Answers with no 4XX, and rightly so: the probes and the simulator page refuse nothing a client could correct.
 * Every other finding of Redocly's recommended rules is a defect of the document.
 */
const NO_CLIENT_ERROR = ['/healthz', '/livez', '/readyz', '/sandbox/terminal'].map((path) => `#/paths/${path.replaceAll('/', '~1')}/get/responses`);

describe("Redocly's lint of the OpenAPI document", () => {
  it.each([
    ['sandbox', true],
    ['production', false],
  ])('finds nothing with its recommended rules (%s)', async (_mode, sandbox) => {
    const document = buildOpenApiDocument({ serverUrl: 'https://pay.example.org', sandbox });
    const config = await createConfig({
      extends: ['recommended'],
      // A self-hosted service's document names no licence; the test's server URL stands for PUBLIC_BASE_URL.
      rules: { 'info-license': 'off', 'no-server-example.com': 'off' },
    });
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config });
    const findings = problems
      .filter((problem) => !(problem.ruleId === 'operation-4xx-response' && NO_CLIENT_ERROR.includes(problem.location[0]?.pointer ?? '')))
      .map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`);
    expect(findings).toEqual([]);
  });
});
