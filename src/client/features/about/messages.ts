import { i18n } from '@/client/lib/i18n'

export const aboutMessages = i18n('about', {
  title: 'About Lingua',
  intro:
    'Lingua is a language-learning app organised around proficiency levels. Learners record the language they study, where they stand and where they want to be; administrators keep the list of levels.',
  cefrTitle: 'What the CEFR levels mean',
  cefrBody:
    'The Common European Framework of Reference for Languages describes ability in six levels, grouped in three bands:',
  basic: 'A1–A2, basic user: everyday expressions, simple exchanges about familiar things.',
  independent:
    'B1–B2, independent user: the main points of clear input, fluent talk on many topics.',
  proficient: 'C1–C2, proficient user: complex texts, precise and spontaneous expression.',
  versionTitle: 'Version',
})
