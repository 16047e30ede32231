import { params } from '@nanostores/i18n'
import { i18n } from '../../lib/i18n'

export const dashboardMessages = i18n('dashboard', {
  title: 'Dashboard',
  greeting: params<{ name: string }>('Hello, {name}!'),
  lead: 'Your learning profile and progress arrive here with the next release.',
})
