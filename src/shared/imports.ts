/**
 * Imports of a learner's words (docs/product.md §12): CSV files and Anki packages, run as jobs.
 * No zod here, so that the client's first page can use them.
 */

/** Where files are sent to be imported (multipart, field `file`). */
export const IMPORTS_PATH = '/api/me/imports'

/** An uploaded file's size, at most (300 MB): larger is refused before anything is stored. */
export const IMPORT_MAX_BYTES = 300 * 1024 * 1024
/** What a package may expand to, declared or real (2 GB). */
export const IMPORT_MAX_EXPANDED_BYTES = 2 * 1024 ** 3
/** A learner's media, at most (500 MB). */
export const MEDIA_QUOTA_BYTES = 500 * 1024 * 1024
/** One media file, at most. */
export const MEDIA_FILE_MAX_BYTES = 50 * 1024 * 1024

export const importStatuses = ['queued', 'running', 'done', 'failed'] as const

/** Why an import was refused: each has its sentence for the learner. */
export const importErrorCodes = ['not_a_package', 'newer_anki', 'damaged', 'too_large', 'cards_full', 'decks_full', 'media_quota', 'interrupted'] as const
export type ImportErrorCode = (typeof importErrorCodes)[number]

/** `GET /api/me/imports/{id}`. */
export interface ImportJob {
  id: string
  kind: 'csv' | 'anki'
  fileName: string
  status: (typeof importStatuses)[number]
  /** Notes done of `total`, while it runs. */
  done: number
  total: number
  notes: number
  cards: number
  reviews: number
  media: number
  decks: { id: number; name: string; cards: number }[]
  skipped: { note: string; reason: string }[]
  error?: { code: ImportErrorCode; what?: string }
  createdAt: string
  finishedAt: string | null
}
