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
  skillsError: 'Your self-assessment could not be loaded.',

  accountTitle: 'Account',
  emailVerified: 'Email confirmed',
  emailNotVerified: 'Email not confirmed',
  mfaOn: 'Two-step verification on',
  mfaOff: 'Two-step verification off',
  manageAccount: 'Manage your account',
  loadError: 'Your profile could not be loaded.',
  retry: 'Try again',
})
