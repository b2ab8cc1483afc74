/** The health module's public surface: the probes' routes and what readiness is made of. */
export { healthRoutes, probeRoutes } from './health.routes';
export { databaseAnswers, migrationsApplied, replicaReplays } from './readiness.queries';
