/**
 * A card field from a learner's own file (an Anki package, a CSV file): the safe subset of HTML it
 * is cleaned to on import (server/api/imports/sanitize.ts) and the only one the client renders
 * (client/components/card-field.tsx). Both sides read the lists below, so what the cleaner keeps is
 * exactly what the renderer draws; the renderer checks it again rather than trusting stored HTML.
 */

/** Elements a cleaned field may hold, none with attributes except `img` (below). */
export const CARD_FIELD_TAGS = [
  'b',
  'strong',
  'i',
  'em',
  'u',
  's',
  'sub',
  'sup',
  'br',
  'div',
  'p',
  'span',
  'ul',
  'ol',
  'li',
  'ruby',
  'rt',
  'rp',
  'img',
] as const

type CardFieldTag = (typeof CARD_FIELD_TAGS)[number]

const allowedTags: ReadonlySet<string> = new Set(CARD_FIELD_TAGS)

export function isCardFieldTag(name: string): name is CardFieldTag {
  return allowedTags.has(name)
}

/**
 * Elements outside the subset whose content goes with them (the cleaner drops it, the renderer draws
 * nothing): code, styles, embedded documents, form controls and what browsers do not show as text.
 * Any other element outside the subset is replaced by its content.
 */
export const CARD_FIELD_HIDDEN_TAGS: readonly string[] = [
  'script',
  'style',
  'template',
  'noscript',
  'noembed',
  'noframes',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'svg',
  'math',
  'canvas',
  'audio',
  'video',
  'title',
  'head',
  'textarea',
  'select',
  'option',
  'xmp',
  'plaintext',
]

/** The attributes kept, by element: an image's media URL and its text alternative, nothing else. */
export const CARD_FIELD_ATTRIBUTES: Readonly<Partial<Record<CardFieldTag, readonly string[]>>> = {
  img: ['src', 'alt'],
}

/**
 * Where Anki wrote `[sound:name.mp3]`, the cleaned field holds `<audio-ref data-src="/api/me/media/…">`
 * (made by the cleaner only: one in the file itself is dropped); the renderer draws a play button.
 */
export const SOUND_TAG = 'audio-ref'
export const SOUND_SRC_ATTRIBUTE = 'data-src'

/**
 * The app's URL of a learner's media file by its content hash (an extension may follow): the only
 * source an image or a sound of a field may have.
 */
export function mediaUrl(hash: string): string {
  const url = `/api/me/media/${hash}`
  if (!isMediaUrl(url)) throw new Error(`Not a media file's name: ${JSON.stringify(hash)}`)
  return url
}
const mediaUrlForm = /^\/api\/me\/media\/[A-Za-z0-9_-]+(?:\.[A-Za-z0-9]{1,10})?$/

/** Whether `url` is one of the app's own media URLs (same origin, no query, no way up the path). */
export function isMediaUrl(url: string | null | undefined): url is string {
  return typeof url === 'string' && mediaUrlForm.test(url)
}

/**
 * The most a cleaned field may weigh (UTF-8 bytes of its HTML). A field over it is refused, not cut:
 * cutting HTML or a learner's text silently loses words; the importer skips the note with a reason.
 */
export const CARD_FIELD_MAX_BYTES = 64 * 1024

/** Elements nested deeper than this keep their text only (a deep tree would overflow a renderer). */
export const CARD_FIELD_MAX_DEPTH = 20

/** A field after cleaning. */
export interface CleanField {
  /** The cleaned HTML: only the elements and attributes above, images and sounds by media URL. */
  html: string
  /**
   * Its plain text, for search, typed answers and CSV export: entities decoded, a line break (`<br>`,
   * and between blocks) as "\n", no images or sounds, ruby as its base text (no reading).
   */
  text: string
  /** The package's media it shows, by their names in the package (each once, in order). */
  images: string[]
  sounds: string[]
}

/** One piece of a cleaned field's HTML. */
type FieldToken =
  | { type: 'open'; name: string; attributes: Record<string, string>; selfClosing: boolean }
  | { type: 'close'; name: string }
  | { type: 'text'; text: string }

const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' }

/** Text with the character references a cleaned field holds decoded (others are left as written). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,8});/g, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1))
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole
    }
    return named[ref] ?? whole
  })
}

export function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

// In cleaned HTML every `<` and `>` outside a tag is escaped and attribute values are double-quoted:
// this reads that form, and the usual others (single quotes, no quotes) of HTML that was not cleaned.
// Anything else (a stray `<`) is read as text, never as a tag. A value holds no `<` or `>`, so a try at
// a tag never reads past the next `<`: the whole read is linear.
// (Each space has one place in the pattern, or a failed try would backtrack through every split.)
const value = /\s*=\s*(?:"[^"<>]*"|'[^'<>]*'|[^\s"'<>=`]+)/.source
const name = /[a-zA-Z_:][a-zA-Z0-9_.:-]*/.source
const token = new RegExp(`<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\\s+${name}(?:${value})?)*)\\s*(/?)>|<|[^<]+`, 'g')
const attribute = /([a-zA-Z_:][a-zA-Z0-9_.:-]*)\s*(?:=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'<>=`]+)))?/g

/** The pieces of a cleaned field's HTML, in order; text decoded. Isomorphic (no DOM). */
export function* fieldTokens(html: string): Generator<FieldToken> {
  for (const match of html.matchAll(token)) {
    const [whole, closing, tagName, attributeText, selfClosing] = match
    if (tagName === undefined) {
      yield { type: 'text', text: decodeEntities(whole) }
    } else if (closing) {
      yield { type: 'close', name: tagName.toLowerCase() }
    } else {
      const attributes: Record<string, string> = {}
      for (const [, name, double, single, bare] of (attributeText ?? '').matchAll(attribute)) {
        if (name) attributes[name.toLowerCase()] = decodeEntities(double ?? single ?? bare ?? '')
      }
      yield { type: 'open', name: tagName.toLowerCase(), attributes, selfClosing: selfClosing === '/' }
    }
  }
}

const blocks: ReadonlySet<string> = new Set(['div', 'p', 'ul', 'ol', 'li'])
/**
 * Elements whose text is not the field's text: ruby's reading and its fallback parentheses, and (in
 * HTML that was not cleaned) what hidden elements hold.
 */
const notText: ReadonlySet<string> = new Set(['rt', 'rp', ...CARD_FIELD_HIDDEN_TAGS])

/** The plain text of a cleaned field (see `CleanField.text`). */
export function fieldText(html: string): string {
  let out = ''
  let skipped = 0
  const lineBreak = () => {
    if (out !== '' && !out.endsWith('\n')) out += '\n'
  }
  for (const piece of fieldTokens(html)) {
    if (piece.type === 'text') {
      if (!skipped) out += piece.text
    } else if (piece.name === 'br' && piece.type === 'open') {
      if (!skipped) out += '\n'
    } else if (notText.has(piece.name)) {
      if (piece.type === 'open' && !piece.selfClosing) skipped++
      else if (piece.type === 'close' && skipped > 0) skipped--
    } else if (blocks.has(piece.name)) {
      if (!skipped) lineBreak()
    }
    // Inline elements, images and sounds add nothing to the text.
  }
  return out
    .replace(/\u00a0/g, ' ')
    .replace(/[ \t]+\n/g, '\n')
    .trim()
}
