/** The audit module's public surface: every change to a merchant's credentials and settings is written here. */
export { insertAuditEntry as recordAudit, type AuditActorRef, type AuditRecord } from './audit.queries';
export { auditLogPage } from './audit-log';
