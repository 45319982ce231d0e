import { auditPath, type AuditFilters } from '../utils/query';
import { adminRequest } from './request';
import type { AuditEvent, Page } from './types';

/** GET /admin/audit: the events matching the filters, newest first, a page at a time. */
export const listAudit = async (apiBaseUrl: string, filters: AuditFilters, cursor: string | null, signal?: AbortSignal): Promise<Page<AuditEvent>> =>
  (await adminRequest<Page<AuditEvent>>(apiBaseUrl, auditPath(filters, cursor), { signal })).data;
