import { params } from '@nanostores/i18n'
import { i18n } from '@/client/lib/i18n'

/** The audit log section of the admin area. */
export const auditMessages = i18n('audit', {
  title: 'Recent changes',
  lead: 'Every change an administrator made, newest first.',
  emptyHint: 'Changes to levels and roles will be listed here as they are made.',
  pages: 'Pages of recent changes',
  loading: 'Loading changes…',
  time: 'Time',
  who: 'Who',
  action: 'Action',
  target: 'Target',
  system: 'System',
  levelCreate: 'Created level',
  levelUpdate: 'Changed level',
  levelDelete: 'Deleted level',
  levelReorder: 'Reordered levels',
  roleGrant: 'Granted the admin role',
  roleRevoke: 'Revoked the admin role',
  level: params<{ code: string }>('Level {code}'),
  levelId: params<{ id: string }>('Level #{id}'),
  allLevels: 'All levels',
  user: params<{ user: string }>('User {user}'),
  changedFields: params<{ fields: string }>('Changed: {fields}'),
  code: 'code',
  name: 'name',
  description: 'description',
})
