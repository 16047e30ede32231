import { params } from '@nanostores/i18n'
import { i18n } from '@/client/lib/i18n'

/**
 * The self-assessment's words that both its page and the dashboard's "Your skills" card show: the
 * five skills (docs/product.md §10, in SKILLS order) and how a result reads.
 */
export const skillMessages = i18n('skills', {
  listening: 'Listening',
  reading: 'Reading',
  'spoken-interaction': 'Spoken interaction',
  'spoken-production': 'Spoken production',
  writing: 'Writing',
  overall: params<{ level: string }>('Overall: {level}'),
  below: params<{ level: string }>('Below {level}'),
  taken: params<{ date: string }>('Taken {date}'),
})
