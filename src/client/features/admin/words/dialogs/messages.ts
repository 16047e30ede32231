import { params } from '@nanostores/i18n'
import { plural } from '@/client/lib/format'
import { i18n } from '@/client/lib/i18n'

/** The dialog that adds or edits one word. */
export const wordFormMessages = i18n('wordForm', {
  addTitle: 'Add a word',
  addLead: 'Learners of this level get it as a new word.',
  editTitle: params<{ text: string }>('Edit “{text}”'),
  editLead: 'Learners who practise it keep their progress.',
  language: 'Language it teaches',
  text: 'Word or phrase',
  translationEn: 'Translation (English)',
  translationEnHint: 'For an English word, a short definition.',
  translationRu: 'Translation (Russian)',
  example: 'Example',
  exampleHint: 'Optional: a sentence that uses it.',
  partOfSpeech: 'Part of speech',
  cancel: 'Cancel',
  add: 'Add word',
  adding: 'Adding…',
  save: 'Save changes',
  saving: 'Saving…',
  added: params<{ text: string }>('Word “{text}” added'),
  saved: params<{ text: string }>('Word “{text}” saved'),
  textTaken: 'A word with this spelling and part of speech already exists, in this level or another.',
  conflictTitle: 'Someone else changed this word',
  conflictBody:
    'It was changed after you opened it, so your changes were not saved. Reload to see the current version; what you typed here will be replaced.',
  reload: 'Reload',
  goneTitle: 'This word no longer exists',
  goneBody: 'Someone deleted it while you were editing it.',
})

/** Importing a CSV file of words: the file, the dry run's report, then the import. */
export const wordImportMessages = i18n('wordImport', {
  title: 'Import words from CSV',
  lead: 'A dry run checks the file first and writes nothing. A row naming a word this level has updates it; the others are added.',
  columns: 'Columns, in this order, with a header row (UTF-8):',
  fileHint: 'At most 4 MB and 20,000 rows.',
  reportTitle: 'Dry run: nothing written yet',
  rows: plural<{ count: number }>('count', { one: '{count} row', other: '{count} rows' }),
  wouldCreate: 'Would be added',
  wouldUpdate: 'Would be updated',
  wouldKeep: 'Unchanged',
  created: 'Added',
  updated: 'Updated',
  unchanged: 'Unchanged',
  allGood: 'Every row can be imported.',
  nothingToDo: 'The file changes nothing: every word is already as it says.',
  doneTitle: 'Imported',
  imported: params<{ created: string; updated: string }>('Words imported: {created} added, {updated} updated'),
  tooLarge: 'The file is larger than 4 MB. Split it and import the parts one by one.',
})
