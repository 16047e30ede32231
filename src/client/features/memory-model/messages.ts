import { params } from '@nanostores/i18n'
import { plural } from '@/client/lib/format'
import { i18n } from '@/client/lib/i18n'

export const memoryModelMessages = i18n('memoryModel', {
  title: 'Memory model',
  lead: 'How Lingua predicts when you will forget a word, and so when it comes back.',
  personalised: plural<{ reviews: number }>('reviews', {
    one: 'Personalised from {reviews} review',
    other: 'Personalised from {reviews} reviews',
  }),
  logLoss: params<{ before: string; after: string }>('log loss {before} → {after}'),
  logLossHint: 'How far its predictions of your answers were from what you answered, with the default model and with your own: lower is better.',
  notBetter: 'A model fitted to your reviews did not predict them better than the default one, so the default stays.',
  defaultModel: 'The default memory model, the same for every learner.',
  reviewsNeeded: plural<{ left: number }>('left', {
    one: '{left} more review and it can be fitted to you.',
    other: '{left} more reviews and it can be fitted to you.',
  }),
  reviewsEnough: 'You have enough reviews to fit it to you.',
  fittedAt: params<{ date: string }>('Last fitted {date}. It is fitted again every week while you practise.'),
  queued: 'Waiting to be personalised…',
  running: 'Personalising your memory model…',
  personaliseNow: 'Personalise now',
  needsReviews: params<{ min: string; reviews: string }>('Needs at least {min} reviews; you have {reviews}.'),
  personaliseStarted: 'Your memory model is being personalised',

  retention: 'Desired retention',
  retentionHint: 'How likely you are to remember a word when it comes back: higher means more reviews.',
  reviewsPerDay: plural<{ count: number }>('count', {
    one: '≈ {count} review a day',
    other: '≈ {count} reviews a day',
  }),
  retentionSaving: 'Saving…',
  retentionSaved: 'Desired retention saved',
})
