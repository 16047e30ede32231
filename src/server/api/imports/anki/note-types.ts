import type { NoteTypeKind } from './types'

export interface NoteTypeShape {
  /** Notetype.Config.kind == 1 (schema 18), model `type` == 1 (schema 11). */
  cloze: boolean
  /** Notetype.Config.original_stock_kind / the model's `originalStockKind` (0 when absent). */
  originalStockKind: number
  fieldNames: string[]
  /** Templates in ordinal order. */
  templates: { qfmt: string; afmt: string }[]
}

/** StockNotetype.OriginalStockKind → kind, with the number of templates that kind has. */
const stockKinds: Record<number, [NoteTypeKind, number | null]> = {
  1: ['basic', 1],
  2: ['reversed', 2],
  3: ['optionalReversed', 2],
  4: ['typing', 1],
  5: ['cloze', null],
  // Image occlusion: its fields are a mask and an image, no front and back.
  6: ['other', null],
}

/**
 * Which of Anki's stock note types this one is (or behaves as). The stock kind recorded by Anki
 * 2.1.62+ wins when the templates still fit it; else the templates tell.
 */
export function noteTypeKind(shape: NoteTypeShape): NoteTypeKind {
  const stock = stockKinds[shape.originalStockKind]
  if (stock && (stock[1] === null || stock[1] === shape.templates.length)) return stock[0]
  if (shape.cloze) return 'cloze'
  const { templates } = shape
  if (templates.some((template) => /\{\{type:/i.test(template.qfmt + template.afmt))) return 'typing'
  if (templates.length === 1) return 'basic'
  if (templates.length === 2) {
    const second = templates[1]?.qfmt.trim() ?? ''
    const addReverse = shape.fieldNames.some((name) => /^add\s*reverse$/i.test(name.trim()))
    return addReverse || second.startsWith('{{#') ? 'optionalReversed' : 'reversed'
  }
  return 'other'
}
