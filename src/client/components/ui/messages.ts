import { i18n } from '@/client/lib/i18n'

export const uiMessages = i18n('ui', {
  notifications: 'Notifications',
  /** Radix puts the hotkey in place of `{hotkey}` itself. */
  notificationsRegion: 'Notifications ({hotkey})',
  close: 'Close',
  cancel: 'Cancel',
  noData: 'No data',
  noMatch: 'No matching data',
  loading: 'Loading…',
  showPassword: 'Show password',
})
