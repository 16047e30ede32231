import { params } from '@nanostores/i18n'
import { plural } from '@/client/lib/format'
import { i18n } from '@/client/lib/i18n'

/** `/progress`: reviews a day, true retention, the next 30 days and the cards by state. */
export const progressMessages = i18n('progress', {
  title: 'Your progress',
  lead: 'How much you practise, how well you remember, and what is coming up.',
  loading: 'Loading your progress…',
  timeZone: params<{ zone: string }>('Days follow your time zone, {zone}.'),
  showTable: 'Show as table',
  hideTable: 'Hide table',
  date: 'Date',

  reviewsTitle: 'Reviews a day',
  reviewsLead: 'The grades you gave each day; undone ones are left out.',
  period: 'Period',
  last30: 'Last 30 days',
  last90: 'Last 90 days',
  reviewsSummary: plural<{ count: number; span: number; days: string; today: string }>('count', {
    one: '{count} review in the last {span} days, on {days} of them; {today} today.',
    other: '{count} reviews in the last {span} days, on {days} of them; {today} today.',
  }),
  reviewsNone: params<{ span: number }>('No reviews in the last {span} days yet.'),
  reviews: 'Reviews',

  retentionTitle: 'True retention',
  retentionLead: 'Of the reviews of cards you had learnt, over the last 30 days: the share you did not answer “Again”.',
  retentionOf: plural<{ count: number; passed: string }>('count', {
    one: '{passed} of {count} review remembered',
    other: '{passed} of {count} reviews remembered',
  }),
  retentionNone: 'No reviews of learnt cards in the last 30 days yet.',
  retentionNoneHint: 'True retention shows once the cards you have learnt come back for review.',

  forecastTitle: 'Next 30 days',
  forecastLead: 'Cards due each day; cards already overdue count on today.',
  forecastSummary: plural<{ count: number; today: string }>('count', {
    one: '{count} card due in the next 30 days, {today} of them today.',
    other: '{count} cards due in the next 30 days, {today} of them today.',
  }),
  forecastNone: 'No card is due in the next 30 days.',
  cardsDue: 'Cards due',

  statesTitle: 'Cards by state',
  statesLead: 'New: the words of your current level and the cards of your decks not started yet.',
  statesTotal: plural<{ count: number }>('count', { one: '{count} card in all.', other: '{count} cards in all.' }),
  stateNew: 'New',
  stateLearning: 'Learning',
  stateReview: 'Review',
  stateRelearning: 'Relearning',
  stateSuspended: 'Suspended',
})
