import { i18n } from '@/client/lib/i18n'

/** The admin area's section navigation. */
export const adminNavMessages = i18n('adminNav', {
  label: 'Administration',
  overview: 'Overview',
  people: 'People',
  levels: 'Language levels',
  canDo: 'Can-do statements',
  recentChanges: 'Recent changes',
})
