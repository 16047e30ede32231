import { params } from '@nanostores/i18n'
import { plural } from '@/client/lib/format'
import { i18n } from '@/client/lib/i18n'

/** `/admin/can-do`: the statements by level and skill, their editing and the CSV file. */
export const canDoAdminMessages = i18n('adminCanDo', {
  title: 'Can-do statements',
  lead: 'What learners answer in the self-assessment, level by level and skill by skill.',
  newStatement: 'New statement',
  exportCsv: 'Export CSV',
  importCsv: 'Import CSV',
  search: 'Search statements',
  searchPlaceholder: 'Words in English or Russian',
  filters: 'Filters',
  level: 'Level',
  skill: 'Skill',
  allLevels: 'All levels',
  allSkills: 'All skills',
  clearFilters: 'Clear filters',
  refreshing: 'Updating…',
  loading: 'Loading statements…',
  emptyHint: 'Add one with “New statement”, or import a CSV file.',
  noMatchHint: 'Try other words or filters, or clear them.',
  count: plural<{ count: number }>('count', {
    one: '{count} statement',
    other: '{count} statements',
  }),
  reorderHint: 'Clear the search to change the order.',
  english: 'English',
  russian: 'Russian',
  moveUp: 'Move up',
  moveDown: 'Move down',
  edit: 'Edit',
  delete: 'Delete',
  moved: params<{ position: string; total: string }>('Moved to position {position} of {total}.'),
  orderChanged: 'The statements changed meanwhile: the list shows them as they are now.',
  deleteTitle: 'Delete this statement?',
  deleteLead: 'Answers learners gave to it go with it; results already taken stay as they are.',
  confirmDelete: 'Delete statement',
  deleting: 'Deleting…',
  deleted: 'Statement deleted',
})

/** The dialog that adds or edits a statement. */
export const statementFormMessages = i18n('canDoForm', {
  newTitle: 'New statement',
  newLead: 'It goes last among the statements of its level and skill.',
  editTitle: 'Edit statement',
  editLead: params<{ level: string; skill: string }>(
    '{level} · {skill}. To move a statement to another level or skill, add it there and delete it here.',
  ),
  level: 'Level',
  skill: 'Skill',
  english: 'English text',
  russian: 'Russian text',
  textHint: params<{ count: string; max: string }>('{count} of {max} characters.'),
  noLevels: 'There are no levels yet: add a level first.',
  create: 'Add statement',
  creating: 'Adding…',
  save: 'Save changes',
  saving: 'Saving…',
  cancel: 'Cancel',
  created: 'Statement added',
  saved: 'Changes saved',
  conflictTitle: 'Someone else changed this statement',
  conflictBody:
    'It was changed after you opened it, so your changes were not saved. Reload to see the current version; what you typed here will be replaced.',
  reload: 'Reload',
})

/** The dialog that checks, then imports, a CSV file of statements. */
export const csvImportMessages = i18n('canDoImport', {
  title: 'Import statements from CSV',
  lead: 'The file is checked first: nothing is written until you import it. Rows go after the statements of their level and skill; a row repeating one of them is refused.',
  columns: params<{ columns: string }>(
    'UTF-8, a header row naming the columns {columns}, then one statement a row. The level is a level’s code; the position may be left empty.',
  ),
  fileHint: 'Up to 5 MB. “Export CSV” gives a file of this shape.',
  rowsRead: plural<{ count: number }>('count', {
    one: '{count} row read.',
    other: '{count} rows read.',
  }),
  wouldCreate: plural<{ count: number }>('count', {
    one: 'Importing adds {count} statement.',
    other: 'Importing adds {count} statements.',
  }),
  nothingToAdd: 'The file has no statements to add.',
  imported: plural<{ count: number }>('count', {
    one: '{count} statement imported',
    other: '{count} statements imported',
  }),
  tooLarge: 'The file is larger than 5 MB.',
})
