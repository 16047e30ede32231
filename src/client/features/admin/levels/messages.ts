import { params } from '@nanostores/i18n'
import { plural } from '@/client/lib/format'
import { i18n } from '@/client/lib/i18n'

/** The list of levels: table, search, pages, deletion and reordering. */
export const levelsAdminMessages = i18n('adminLevels', {
  title: 'Language levels',
  lead: 'The levels learners choose from, in the order they see them.',
  newLevel: 'New level',
  reorder: 'Reorder',
  search: 'Search levels',
  searchPlaceholder: 'Code, name or description',
  emptyHint: 'Add the first one with “New level”: learners choose from these.',
  noMatchHint: 'Try other words, or clear the search.',
  reorderEmptyHint: 'There is nothing to order yet: add a level first.',
  tableCaption: 'Language levels',
  position: 'Position',
  code: 'Code',
  name: 'Name',
  description: 'Description',
  updated: 'Updated',
  actions: 'Actions',
  loading: 'Loading levels…',
  refreshing: 'Updating…',
  delete: 'Delete',
  deleteNamed: params<{ code: string }>('Delete {code}'),
  pagination: 'Pages',
  deleteTitle: params<{ code: string }>('Delete level {code}?'),
  deleteLead: params<{ code: string; name: string }>(
    '“{name}” ({code}) will be removed for good. This cannot be undone.',
  ),
  usageLoading: 'Checking what goes with this level…',
  usageNone: 'No learner has this level in their profile.',
  usageSome: plural<{ count: number }>('count', {
    one: 'Learners who have this level in their profile: {count}. It will be cleared from their profiles.',
    other: 'Learners who have this level in their profile: {count}. It will be cleared from their profiles.',
  }),
  statementsNone: 'It has no can-do statements.',
  statementsSome: plural<{ count: number }>('count', {
    one: '{count} can-do statement will be deleted with it.',
    other: '{count} can-do statements will be deleted with it.',
  }),
  wordsNone: 'It has no words to practise.',
  wordsSome: plural<{ count: number }>('count', {
    one: '{count} word will be deleted with it, with every learner’s progress on it.',
    other: '{count} words will be deleted with it, with every learner’s progress on them.',
  }),
  usageFailed: 'Could not check what goes with this level.',
  cancel: 'Cancel',
  confirmDelete: 'Delete level',
  deleting: 'Deleting…',
  deleted: params<{ code: string }>('Level {code} deleted'),
  reorderTitle: 'Reorder levels',
  reorderLead:
    'Drag a level by its handle, or focus the handle, press Space, move it with the arrow keys and press Space again. Save when the order is right.',
  moveLevel: params<{ code: string; name: string }>('Move {code} {name}'),
  saveOrder: 'Save order',
  savingOrder: 'Saving…',
  orderSaved: 'Order saved',
  reload: 'Reload',
  dragInstructions:
    'To pick up a level, press Space or Enter. Move it with the up and down arrow keys, drop it with Space or Enter, or press Escape to cancel.',
  dragStart: params<{ code: string; position: string; total: string }>(
    'Picked up level {code}, at position {position} of {total}.',
  ),
  dragOver: params<{ code: string; position: string; total: string }>(
    'Level {code} is now at position {position} of {total}.',
  ),
  dragEnd: params<{ code: string; position: string; total: string }>(
    'Level {code} dropped at position {position} of {total}.',
  ),
  dragCancel: params<{ code: string; position: string; total: string }>(
    'Moving cancelled. Level {code} is back at position {position} of {total}.',
  ),
})

/** The level form and the pages around it (create, view and edit). */
export const levelFormMessages = i18n('levelForm', {
  code: 'Code',
  codeHint: 'Letters, digits and + . _ -, up to 16 characters, e.g. B2.',
  name: 'Name',
  description: 'Description',
  descriptionHint: params<{ count: string; max: string }>('Plain text. {count} of {max} characters.'),
  create: 'Create level',
  creating: 'Creating…',
  save: 'Save changes',
  saving: 'Saving…',
  discard: 'Discard changes',
  created: params<{ code: string }>('Level {code} created'),
  saved: 'Changes saved',
  codeTaken: 'Another level already uses this code.',
  adminRequired: 'Administrator rights are required to create levels',
  adminRequiredLead: 'You can look at the form, but only an administrator can send it.',
  conflictTitle: 'Someone else changed this level',
  conflictBody:
    'It was changed after you opened it, so your changes were not saved. Reload to see the current version; what you typed here will be replaced.',
  reload: 'Reload',
  changedBy: params<{ name: string }>('Changed by {name} just now'),
  changedBody: 'Your changes are not saved yet. Reload to see the current version; what you typed here will be replaced.',
  newTitle: 'New level',
  newLead: 'Add a level learners can choose. It goes to the end of the list.',
  breadcrumb: 'Breadcrumb',
  levels: 'Language levels',
  detailsTitle: 'Details',
  position: 'Position',
  createdAt: 'Created',
  updatedAt: 'Last changed',
  editTitle: 'Edit',
  deleteTitle: 'Delete this level',
  deleteLead: 'Learners who have it in their profile lose it from there.',
  delete: 'Delete',
})
