import { z } from 'zod/mini'
import { WORD_CSV_COLUMNS, WORD_CSV_MAX_BYTES, WORD_CSV_MAX_ROWS } from '@/shared/words'
import { DECKS_MAX, DECK_CARDS_MAX, type Deck, type DeckList, type DeckWord, type DeckWordPage, noteKinds } from '@/shared/decks'
import { describe, file, json } from '@/server/openapi/describe'
import { answer, count, isoDateTime, positiveInt } from '@/server/openapi/schemas'
import { wordImportResultSchema, wordTextShape } from '@/server/api/words/docs'

const tags = ['Decks']
const languageCode = z.string().check(z.regex(/^[a-z]{2}$/), z.meta({ examples: ['es'] }))
const counts = { new: count, due: count, total: count }

const deckSchema = answer<Deck>('Deck', 'One of the learner\'s decks, with its cards counted: new, due before their day ends, all.')(
  z.object({
    id: positiveInt,
    name: z.string(),
    language: languageCode,
    description: z.nullable(z.string()),
    practiseDaily: z.boolean(),
    version: positiveInt,
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    ...counts,
  }),
)

const deckListSchema = answer<DeckList>('DeckList', 'The course words of the current level (null without one), then the learner\'s decks by name.')(
  z.object({
    course: z.nullable(z.object({ levelCode: z.string(), language: z.nullable(languageCode), ...counts })),
    decks: z.array(deckSchema),
  }),
)

const deckWordSchema = answer<DeckWord>('DeckWord', 'A word of a deck: the note its cards are made from (two for a reversed one, one per cloze number).')(
  z.object({
    id: positiveInt,
    deckId: positiveInt,
    kind: z.enum(noteKinds),
    ...wordTextShape,
    notes: z.nullable(z.string()),
    tags: z.array(z.string()),
    cards: positiveInt,
    due: z.nullable(isoDateTime),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  }),
)

const deckWordPageSchema = answer<DeckWordPage>('DeckWordPage', "One page of a deck's words; `total` counts the matches.")(
  z.object({ items: z.array(deckWordSchema), total: count, page: positiveInt, pageSize: positiveInt }),
)

const own = 'Only the signed-in learner\'s own decks: another\'s is 404, for administrators too.'

export const describeListDecks = describe({
  operationId: 'listDecks',
  summary: 'The learner\'s decks',
  description: own,
  tags,
  access: 'user',
  responses: { 200: json(deckListSchema, 'The course row and the decks.') },
  errors: [503],
})

export const describeCreateDeck = describe({
  operationId: 'createDeck',
  summary: 'Make a deck',
  description: `At most ${DECKS_MAX} decks a learner (409 \`decks_full\`).`,
  tags,
  access: 'user',
  responses: { 201: json(deckSchema, 'The new deck.') },
  errors: [409, 429, 503],
})

export const describeReadDeck = describe({
  operationId: 'readDeck',
  summary: 'One deck',
  description: own,
  tags,
  access: 'user',
  responses: { 200: json(deckSchema, 'The deck and its counts.') },
  errors: [404, 503],
})

export const describePatchDeck = describe({
  operationId: 'updateDeck',
  summary: 'Change a deck',
  description: 'Sends the `version` it read: 409 when the deck changed since.',
  tags,
  access: 'user',
  responses: { 200: json(deckSchema, 'The deck, its version one higher.') },
  errors: [404, 409, 429, 503],
})

export const describeDeleteDeck = describe({
  operationId: 'deleteDeck',
  summary: 'Delete a deck and its cards',
  description: 'Its past reviews stay counted in their days.',
  tags,
  access: 'user',
  responses: { 204: { description: 'Deleted.' } },
  errors: [404, 429, 503],
})

export const describeListDeckWords = describe({
  operationId: 'listDeckWords',
  summary: "Search, sort and page a deck's words",
  description: '`q` searches the text, both translations and the notes, ignoring case; `sort` is `created` (the order they were added), `text` or `due`.',
  tags,
  access: 'user',
  responses: { 200: json(deckWordPageSchema, 'One page of words.') },
  errors: [404, 503],
})

export const describeAddDeckWord = describe({
  operationId: 'addDeckWord',
  summary: 'Add a word to a deck',
  description: `One translation is enough (the other takes it); \`reversed\` adds the card that asks it the other way round. At most ${DECK_CARDS_MAX} cards in all a learner (409 \`cards_full\`).`,
  tags,
  access: 'user',
  responses: { 201: json(deckWordSchema, 'The new word.') },
  errors: [404, 409, 429, 503],
})

export const describePutDeckWord = describe({
  operationId: 'updateDeckWord',
  summary: 'Change a word of a deck',
  description: 'Its cards keep their schedules; turning `reversed` off removes the reverse card with its schedule.',
  tags,
  access: 'user',
  responses: { 200: json(deckWordSchema, 'The word.') },
  errors: [404, 409, 429, 503],
})

export const describeDeleteDeckWord = describe({
  operationId: 'deleteDeckWord',
  summary: 'Delete a word of a deck',
  description: 'Its cards go with it; its past reviews stay counted in their days.',
  tags,
  access: 'user',
  responses: { 204: { description: 'Deleted.' } },
  errors: [404, 429, 503],
})

export const describeExportDeckCsv = describe({
  operationId: 'exportDeckCsv',
  summary: 'A deck as CSV',
  description: `UTF-8 with a BOM, a header row, then one row a word (its first card): language, text, translation_en, translation_ru, example, part_of_speech (the columns of a level's words), deck (its name), tags (space-separated), notes. A field that a spreadsheet would take for a formula (starting with =, +, -, @) is written behind a \`'\`. ${own}`,
  tags,
  access: 'user',
  responses: { 200: file(['text/csv'], 'The file, as an attachment named after the deck.') },
  errors: [404, 503],
})

export const describeExportDeckAnki = describe({
  operationId: 'exportDeckAnki',
  summary: 'A deck as an Anki package',
  description: `An \`.apkg\` that every Anki version imports (\`collection.anki2\`, schema 11, with the media its words show and every review of its cards): its notes keep their Anki guid, so importing it again (into Anki or Lingua) updates them rather than adding them twice; Lingua imports it back to the same words, schedules and history. Streamed. ${own}`,
  tags,
  access: 'user',
  responses: { 200: file(['application/apkg'], 'The package, as an attachment named after the deck.') },
  errors: [404, 503],
})

export const describeCheckDeckCsv = describe({
  operationId: 'checkDeckCsv',
  summary: 'Check a CSV file against a deck (a dry run)',
  description: `The body is the file (\`Content-Type: text/csv\`, UTF-8, at most ${WORD_CSV_MAX_BYTES / 1024 / 1024} MB and ${WORD_CSV_MAX_ROWS} rows), its header the words' columns (${WORD_CSV_COLUMNS.join(', ')}), optionally followed by deck, tags, notes (a deck's CSV export). Writes nothing: says how many words importing it would add, change and leave as they are (a row names a word of the deck by its text, ignoring case, and part of speech), and every row it would skip, with its line and reason. The import itself is \`POST /api/me/imports\` with \`deckId\`.`,
  tags,
  access: 'user',
  requestBody: { ...file(['text/csv'], 'The words file.'), required: true },
  responses: { 200: json(wordImportResultSchema, 'What importing it would do.') },
  errors: [404, 429, 503],
})
