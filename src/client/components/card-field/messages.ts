import { i18n } from '@/client/lib/i18n'

/** A card field's play button (components/card-field/card-field.tsx), for a sound of the learner's own words. */
export const cardFieldMessages = i18n('cardField', {
  playSound: 'Play sound',
})
