/**
 * The audit log's query keys. The log records every administrative write, so each admin feature
 * that writes refreshes it (`auditKeys.all`); the audit feature reads it page by page.
 */
export const auditKeys = {
  all: ['audit'] as const,
  page: (page: number) => ['audit', page] as const,
}
