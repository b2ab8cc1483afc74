import * as paths from '../endpoint-paths';
import { HealthSchema, LivenessSchema, ReadinessSchema } from '../lifecycle-requests';
import type { EndpointDescription } from './description';

/** The service's health, liveness and readiness, for monitors and orchestrators. */
export const HEALTH_ENDPOINTS = {
  health: {
    operationId: 'health',
    method: 'get',
    path: paths.healthPath,
    tag: 'Service',
    summary: 'Health',
    description: '200 when the service and its database answer; 503 otherwise.',
    auth: ['none'],
    response: { status: 200, description: 'Healthy', schema: HealthSchema },
    errors: [],
    idempotent: false,
  },
  liveness: {
    operationId: 'liveness',
    method: 'get',
    path: paths.livenessPath,
    tag: 'Service',
    summary: 'Liveness',
    description: '200 while the process serves requests, whatever its database does. For an orchestrator deciding whether to restart it.',
    auth: ['none'],
    response: { status: 200, description: 'Alive', schema: LivenessSchema },
    errors: [],
    idempotent: false,
  },
  readiness: {
    operationId: 'readiness',
    method: 'get',
    path: paths.readinessPath,
    tag: 'Service',
    summary: 'Readiness',
    description:
      'Whether this instance should receive traffic: 200 `ready` when the database answers, its migrations are applied, the LISTEN ' +
      'connection hears its own notifications and every background worker (callback dispatcher, expiry sweeps, processor-request ' +
      'worker) ticked recently; otherwise 503 `not_ready`. What each check found is on the metrics listener only (docs/operating.md).',
    auth: ['none'],
    response: { status: 200, description: 'Ready (503 with the same shape when not)', schema: ReadinessSchema },
    errors: [],
    idempotent: false,
  },
} as const satisfies Record<string, EndpointDescription>;
