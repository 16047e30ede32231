import { params } from '@nanostores/i18n'
import { i18n } from '@/client/lib/i18n'

/** The pieces of a server-paged table: where the reader is, and the ways to other pages. */
export const dataTableMessages = i18n('dataTable', {
  rowsPerPage: 'Rows per page',
  range: params<{ from: string; to: string; total: string }>('{from}–{to} of {total}'),
  pageOf: params<{ page: string; pages: string }>('Page {page} of {pages}'),
  firstPage: 'First page',
  previousPage: 'Previous page',
  nextPage: 'Next page',
  lastPage: 'Last page',
})
