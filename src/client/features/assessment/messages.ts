import { params } from '@nanostores/i18n'
import { plural } from '@/client/lib/format'
import { i18n } from '@/client/lib/i18n'

export const assessmentMessages = i18n('assessment', {
  title: 'Self-assessment',
  lead: 'Find your level skill by skill. For each statement, say whether you can do it today. Leave whenever you like: your answers are kept and you carry on where you stopped.',
  howTitle: 'How it works',
  howSkills: 'Five skills, one after the other: listening, reading, spoken interaction, spoken production and writing.',
  howLevels: 'Each skill starts at the lowest level and goes up while you can do what a level describes.',
  howKeys: 'With a keyboard: 1 for "I can do this", 2 for "Not yet".',
  start: 'Start self-assessment',
  starting: 'Starting…',
  loadError: 'The self-assessment could not be loaded.',
  retry: 'Try again',
  noStatements: 'There is nothing to assess yet: no can-do statements have been written. Please come back later.',

  skillOf: params<{ n: number; count: number }>('Skill {n} of {count}'),
  statementOf: params<{ n: number; count: number; level: string }>('Level {level} · statement {n} of {count}'),
  skillsProgress: 'Skills',
  skillDone: params<{ skill: string }>('{skill}: done'),
  skillNow: params<{ skill: string }>('{skill}: now'),
  skillNext: params<{ skill: string }>('{skill}: to come'),
  answers: 'Your answer',
  can: 'I can do this',
  notYet: 'Not yet',
  back: 'Back',
  keys: 'Keys: 1 — I can do this, 2 — Not yet. Arrow keys move between the answers, Enter chooses.',
  announce: params<{ skill: string; n: number; count: number; level: string; text: string }>(
    'Skill {n} of {count}, {skill}, level {level}: {text}',
  ),

  resultTitle: 'Your result',
  resultLead: 'Where you stand in each skill, by what you said you can do.',
  chartTitle: 'Level by skill',
  tableCaption: 'Your level in each skill',
  showTable: 'Show as a table',
  skill: 'Skill',
  level: 'Level',
  rule: 'Your overall level is the level three of your skills share, or else the second lowest of your five skill levels.',
  skillRule: params<{ percent: number; missed: number }>(
    'A skill reaches a level when you can do at least {percent} % of what that level describes; {missed} levels in a row below that end the skill.',
  ),
  shared: plural<{ count: number; level: string }>('count', {
    one: '{count} skill is at {level}.',
    other: '{count} skills are at {level}.',
  }),
  sharedBelow: plural<{ count: number; level: string }>('count', {
    one: '{count} skill is below {level}.',
    other: '{count} skills are below {level}.',
  }),
  middle: params<{ level: string }>('No level is shared by three skills: the second lowest is {level}.'),
  useLevel: 'Use as my current level',
  startWith: params<{ level: string }>('Start with {level} as my current level'),
  saving: 'Saving…',
  levelUpdated: 'Current level updated',
  alreadyCurrent: 'This is your current level.',
  levelGone: params<{ level: string }>('Level {level} no longer exists, so it cannot be your current level.'),
  startAgain: 'Start again',
  confirmTitle: 'Start the self-assessment again?',
  confirmMidway: 'Your answers so far will be deleted and you start from the first skill. Results you finished before stay.',
  confirmResult: 'A new self-assessment starts from the first skill. This result stays on your dashboard until you finish the new one.',
  confirmButton: 'Start again',
})
