import sanitizeHtml from 'sanitize-html'
import {
  CARD_FIELD_ATTRIBUTES,
  CARD_FIELD_HIDDEN_TAGS,
  CARD_FIELD_MAX_BYTES,
  CARD_FIELD_MAX_DEPTH,
  CARD_FIELD_TAGS,
  type CleanField,
  SOUND_SRC_ATTRIBUTE,
  SOUND_TAG,
  decodeEntities,
  escapeText,
  fieldText,
  fieldTokens,
  isMediaUrl,
} from '@/shared/card-field'

/**
 * Cleaning a card field from a learner's file (PRODUCT §12) to the safe subset of shared/card-field.ts,
 * with sanitize-html (kept, and the parser it uses is the one browsers' rules are written for).
 */

/**
 * A field longer than this is refused before it is parsed: it bounds the work one field costs. It is
 * well above the cleaned limit because what a file holds can shrink a lot on cleaning (a pasted
 * `data:` image, a style sheet, a script).
 */
export const RAW_FIELD_MAX_BYTES = 2 * 1024 * 1024

/**
 * …and a field with more tags than this (counted as `<`): parsing costs time by the square of the
 * nesting (10,000 unclosed tags take ~40 ms, 40,000 ~0.4 s), and no real field comes near it (the
 * cleaned limit holds fewer than 10,000 of the shortest tags).
 */
export const RAW_FIELD_MAX_TAGS = 10_000

/**
 * A field too large to keep: over `RAW_FIELD_MAX_BYTES` or `RAW_FIELD_MAX_TAGS` as written, or over
 * `CARD_FIELD_MAX_BYTES` once cleaned. It is refused whole rather than cut (cutting would silently
 * lose the learner's words): the importer skips the note and reports why.
 */
export class FieldTooLargeError extends Error {
  constructor(
    readonly size: number,
    readonly limit: number,
    readonly unit: 'bytes' | 'tags',
  ) {
    super(`A field of ${size} ${unit} is over the limit of ${limit} ${unit}`)
    this.name = 'FieldTooLargeError'
  }
}

/** Block elements outside the subset that keep their lines as a `div`; others keep only their text. */
const asDiv = [
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'center', 'tr', 'td', 'th', 'dt', 'dd',
  'section', 'article', 'header', 'footer', 'figure', 'figcaption', 'address',
]
const renamed: Record<string, string> = { strike: 's', del: 's', ins: 'u' }

// Characters that are never text and that PostgreSQL's text refuses (NUL).
// eslint-disable-next-line no-control-regex
const controlCharacters = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g
const scheme = /^[a-z][a-z0-9+.-]*:/i
const sound = /\[sound:([^\]]+)\]/g

/**
 * The app's URL of a media file the field names and the name it has in the package, or null: a name
 * of the package's flat media folder (no scheme, no path), looked up as written and, if Anki
 * percent-encoded it, decoded.
 */
function mediaOf(written: string, media: (name: string) => string | null): { url: string; name: string } | null {
  const names = [written.trim()]
  if (names[0]?.includes('%')) {
    try {
      names.push(decodeURIComponent(names[0]))
    } catch {
      // Not percent-encoding after all.
    }
  }
  for (const name of names) {
    if (!name || scheme.test(name) || /[/\\]/.test(name)) continue
    const url = media(name)
    if (isMediaUrl(url)) return { url, name }
  }
  return null
}

/**
 * The field's HTML cleaned to the subset of shared/card-field.ts, its plain text, and the media it
 * shows. `media(name)` is the app's URL of the package's file of that name, or null when the package
 * has none: an image or sound without one is dropped. Anki's `{{c1::answer::hint}}` is text and stays
 * as it is. Throws FieldTooLargeError (see it).
 */
export function cleanField(html: string, media: (name: string) => string | null): CleanField {
  const rawBytes = Buffer.byteLength(html)
  if (rawBytes > RAW_FIELD_MAX_BYTES) throw new FieldTooLargeError(rawBytes, RAW_FIELD_MAX_BYTES, 'bytes')
  let tags = 0
  for (let at = html.indexOf('<'); at !== -1; at = html.indexOf('<', at + 1)) tags++
  if (tags > RAW_FIELD_MAX_TAGS) throw new FieldTooLargeError(tags, RAW_FIELD_MAX_TAGS, 'tags')

  // Which names the media URLs came from, to list the media the cleaned field still shows.
  const names = new Map<string, string>()
  const lookUp = (written: string) => {
    const found = mediaOf(written, media)
    if (found === null) return null
    if (!names.has(found.url)) names.set(found.url, found.name)
    return found.url
  }

  const transformTags: Record<string, string | sanitizeHtml.Transformer> = {
    img: (_tagName, attribs) => {
      const src = attribs.src === undefined ? null : lookUp(attribs.src)
      // An element outside the subset: dropped (an image has no content to keep).
      if (src === null) return { tagName: 'dropped-image', attribs: {} }
      const kept: sanitizeHtml.Attributes = { src }
      const alt = attribs.alt?.trim()
      if (alt) kept.alt = alt
      return { tagName: 'img', attribs: kept }
    },
  }
  for (const name of asDiv) transformTags[name] = 'div'
  for (const [from, to] of Object.entries(renamed)) transformTags[from] = to

  const cleaned = sanitizeHtml(html.replace(controlCharacters, ''), {
    allowedTags: [...CARD_FIELD_TAGS],
    allowedAttributes: Object.fromEntries(Object.entries(CARD_FIELD_ATTRIBUTES).map(([tag, list]) => [tag, [...list]])),
    allowedClasses: {},
    allowedSchemes: [],
    allowedSchemesByTag: {},
    allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
    nonTextTags: [...CARD_FIELD_HIDDEN_TAGS],
    nestingLimit: CARD_FIELD_MAX_DEPTH,
    transformTags,
  })

  // `[sound:name]` in the text becomes the play button's marker. Cleaned HTML has no `<` or `>`
  // outside its tags, so a text run is what lies between them (never an attribute such as `alt`).
  const withSounds = cleaned.replace(/(<[^>]*>)|([^<]+)/g, (_whole, tag: string | undefined, text: string) => {
    if (tag !== undefined) return tag
    return text.replace(sound, (_marker, name: string) => {
      const url = lookUp(decodeEntities(name))
      return url === null ? '' : `<${SOUND_TAG} ${SOUND_SRC_ATTRIBUTE}="${escapeText(url)}"></${SOUND_TAG}>`
    })
  })
  const finalHtml = withSounds.trim()

  const bytes = Buffer.byteLength(finalHtml)
  if (bytes > CARD_FIELD_MAX_BYTES) throw new FieldTooLargeError(bytes, CARD_FIELD_MAX_BYTES, 'bytes')

  const images: string[] = []
  const sounds: string[] = []
  for (const piece of fieldTokens(finalHtml)) {
    if (piece.type !== 'open') continue
    const list = piece.name === 'img' ? images : piece.name === SOUND_TAG ? sounds : null
    const url = piece.name === 'img' ? piece.attributes.src : piece.attributes[SOUND_SRC_ATTRIBUTE]
    const name = url === undefined ? undefined : names.get(url)
    if (list && name !== undefined && !list.includes(name)) list.push(name)
  }

  return { html: finalHtml, text: fieldText(finalHtml), images, sounds }
}
