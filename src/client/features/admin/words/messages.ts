import { params } from '@nanostores/i18n'
import { i18n } from '@/client/lib/i18n'

/** The "Words" section of a level's page: the table, its search and pages, and its actions. */
export const wordsAdminMessages = i18n('adminWords', {
  title: 'Words',
  lead: 'What learners of this level practise, in the order they were added.',
  search: 'Search words',
  searchPlaceholder: 'Word or translation',
  tableCaption: 'Words of this level',
  text: 'Word',
  translation: 'Translation',
  partOfSpeech: 'Part of speech',
  example: 'Example',
  actions: 'Actions',
  loading: 'Loading words…',
  refreshing: 'Updating…',
  emptyHint: 'Add the first one with “Add word”, or import a CSV file.',
  noMatchHint: 'Try other words, or clear the search.',
  clearSearch: 'Clear search',
  pagination: 'Pages of words',
  add: 'Add word',
  edit: 'Edit',
  editNamed: params<{ text: string }>('Edit {text}'),
  delete: 'Delete',
  deleteNamed: params<{ text: string }>('Delete {text}'),
  exportCsv: 'Export CSV',
  importCsv: 'Import CSV',
  deleteTitle: params<{ text: string }>('Delete the word “{text}”?'),
  deleteLead: 'It is removed from this level for good, with every learner’s progress on it. Past days keep their counts.',
  confirmDelete: 'Delete word',
  deleting: 'Deleting…',
  deleted: params<{ text: string }>('Word “{text}” deleted'),
})
