import { params } from '@nanostores/i18n'
import { plural } from '@/client/lib/format'
import { i18n } from '@/client/lib/i18n'

/** `/admin`: the figures and charts of the user base. */
export const overviewMessages = i18n('adminOverview', {
  title: 'Overview',
  lead: 'The state of the user base at a glance.',
  asOf: params<{ time: string }>('Figures as of {time}'),
  loading: 'Loading the figures…',
  figures: 'Figures',
  accounts: 'Accounts',
  confirmed: 'Confirmed',
  twoFactor: 'Two-step verification on',
  activeLast7Days: 'Active in the last 7 days',
  activeLast30Days: 'Active in the last 30 days',
  newThisWeek: 'New this week',
  disabled: 'Disabled',
  admins: 'Administrators',
  shareOfAccounts: params<{ share: string }>('{share} of accounts'),
  currentLevelsTitle: 'Learners per current level',
  targetLevelsTitle: 'Learners per target level',
  signUpsTitle: 'Sign-ups per week',
  signUpsLead: 'The last 12 weeks; a week starts on Monday (UTC).',
  showTable: 'Show as table',
  hideTable: 'Hide table',
  level: 'Level',
  name: 'Name',
  learners: 'Learners',
  week: 'Week starting',
  signUps: 'Sign-ups',
  noLevel: 'No level',
  noLevelName: 'Not chosen',
  levelsSummary: plural<{ count: number; code: string; top: string }>('count', {
    one: '{count} learner has chosen a level; the most chose {code} ({top}).',
    other: '{count} learners have chosen a level; the most chose {code} ({top}).',
  }),
  levelsSummaryNone: 'No learner has chosen a level yet.',
  noLevelSummary: plural<{ count: number }>('count', {
    one: '{count} learner has not chosen one.',
    other: '{count} learners have not chosen one.',
  }),
  noLevels: 'There are no levels yet: learners have nothing to choose from.',
  signUpsSummary: plural<{ count: number; last: string }>('count', {
    one: '{count} sign-up in the last 12 weeks, {last} of them this week.',
    other: '{count} sign-ups in the last 12 weeks, {last} of them this week.',
  }),
  signUpsNone: 'Nobody signed up in the last 12 weeks.',
  assessedTitle: 'Learners by assessed level',
  assessedLead: 'The overall level of each learner’s latest self-assessment.',
  assessedSummary: plural<{ count: number; code: string; top: string }>('count', {
    one: '{count} learner has a self-assessed level; the most are at {code} ({top}).',
    other: '{count} learners have a self-assessed level; the most are at {code} ({top}).',
  }),
  assessedSummaryNone: 'No learner has reached a level in the self-assessment yet.',
  assessedBelowSummary: plural<{ count: number }>('count', {
    one: '{count} learner is below the first level.',
    other: '{count} learners are below the first level.',
  }),
  assessedBelow: 'Below',
  assessedBelowName: 'Below the first level',
  deletedLevel: 'Level deleted since',
})
