import { params } from '@nanostores/i18n'
import { plural } from '@/client/lib/format'
import { i18n } from '@/client/lib/i18n'

export const dashboardMessages = i18n('dashboard', {
  title: 'Dashboard',
  greeting: params<{ name: string }>('Hello, {name}!'),
  lead: 'Your learning profile, where you stand and where you are going.',

  profileTitle: 'Learning profile',
  language: 'Language',
  currentLevel: 'Current level',
  targetLevel: 'Target level',
  notChosen: 'Not chosen',
  saveProfile: 'Save profile',
  saving: 'Saving…',
  saved: 'Profile saved',
  lastSaved: params<{ time: string }>('Last saved {time}'),

  progressTitle: 'Progress',
  progressNone: 'Choose your current level to see your progress.',
  progressAt: params<{ position: string; count: string }>('Level {position} of {count}'),
  progressToTarget: plural<{ steps: number }>('steps', {
    one: '{steps} more to your target',
    other: '{steps} more to your target',
  }),
  progressTargetReached: 'You have reached your target level.',
  progressDone: 'Done',
  progressCurrent: 'Current',
  progressTarget: 'Target',

  currentTitle: 'Your level',
  currentNone: 'Set your current level in the profile to read what it means.',

  skillsTitle: 'Your skills',
  skillsNone: 'Find your level skill by skill: say what you can do, and see where you stand.',
  takeAssessment: 'Take the self-assessment',
  takeAgain: 'Take it again',
  assessmentStarted: params<{ date: string; done: number; total: number }>('Started {date}: {done} of {total} skills done.'),
  continueAssessment: 'Continue the self-assessment',
  skillsError: 'Your self-assessment could not be loaded.',

  todayTitle: 'Today',
  dueToday: params<{ n: string }>('Due today: {n}'),
  newToday: params<{ n: string }>('New today: {n}'),
  reviewsDone: plural<{ done: string; goal: number }>('goal', {
    one: '{done} of {goal} review',
    other: '{done} of {goal} reviews',
  }),
  goalProgress: 'Reviews towards today’s goal',
  goalMet: 'Today’s goal is met.',
  practiseNow: 'Practise now',
  allDone: 'All done for today',
  noLevel: 'New words come from your current level: set it in your learning profile, or take the self-assessment to find it.',
  noLevelAssessed: params<{ level: string }>(
    'New words come from your current level, which is not set yet. Your self-assessment placed you at {level}: use it from your result, or set a level in your learning profile.',
  ),
  seeResult: 'See your result',
  noWords: params<{ level: string; language: string }>(
    'Level {level} has no words in {language} yet: for new words, choose another level or language in your learning profile.',
  ),
  noWordsAtLevel: params<{ level: string }>(
    'Level {level} has no words yet: for new words, choose another level in your learning profile.',
  ),
  levelLearned: params<{ level: string }>(
    'You have started every word of level {level}: for new words, choose the next level in your learning profile.',
  ),
  streak: plural<{ n: number }>('n', { one: 'Streak: {n} day', other: 'Streak: {n} days' }),
  longest: plural<{ n: number }>('n', { one: 'Longest: {n} day', other: 'Longest: {n} days' }),
  seeProgress: 'Your progress',
  calendarTitle: 'Last 12 weeks',
  calendarSummary: params<{ practised: string; met: string; reviews: string }>(
    'Days practised: {practised} · Days with the goal met: {met} · Reviews: {reviews}',
  ),
  calendarDay: plural<{ date: string; reviews: number }>('reviews', {
    one: '{date}: {reviews} review',
    other: '{date}: {reviews} reviews',
  }),
  calendarDayMet: params<{ day: string }>('{day}, goal met'),
  legendNone: 'No reviews',
  legendSome: 'Some reviews',
  legendMet: 'Goal met',
  weekStarting: 'Week starting',
  daysPractised: 'Days practised',
  daysGoalMet: 'Goal met',
  reviews: 'Reviews',
  showTable: 'Show as table',
  hideTable: 'Hide table',

  accountTitle: 'Account',
  emailVerified: 'Email confirmed',
  emailNotVerified: 'Email not confirmed',
  mfaOn: 'Two-step verification on',
  mfaOff: 'Two-step verification off',
  manageAccount: 'Manage your account',
  loadError: 'Your profile could not be loaded.',
  retry: 'Try again',
})
