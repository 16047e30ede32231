import { BinaryReader, WireType } from '@bufbuild/protobuf/wire'
import { damaged } from './limits'

/**
 * The few protobuf messages of Anki's a package holds, read field by field (the numbers are those
 * of Anki's proto/anki/import_export.proto, notetypes.proto and decks.proto); unknown fields are
 * skipped, as any protobuf reader does. A message that does not parse is damaged.
 */
type FieldReader = (reader: BinaryReader, field: number, wire: WireType) => boolean

function readMessage(bytes: Uint8Array, what: string, onField: FieldReader): void {
  try {
    const reader = new BinaryReader(bytes)
    while (reader.pos < reader.len) {
      const [field, wire] = reader.tag()
      if (!onField(reader, field, wire)) reader.skip(wire, field)
    }
  } catch {
    throw damaged(`${what} is unreadable`)
  }
}

const isVarint = (wire: WireType) => wire === WireType.Varint
const isBytes = (wire: WireType) => wire === WireType.LengthDelimited

/** PackageMetadata.version (1 legacy 1, 2 legacy 2, 3 latest; 0 or anything else: unknown). */
export function decodeMetaVersion(bytes: Uint8Array): number {
  let version = 0
  readMessage(bytes, 'the package description', (reader, field, wire) => {
    if (field !== 1 || !isVarint(wire)) return false
    version = reader.int32()
    return true
  })
  return version
}

export interface MediaEntry {
  name: string
  size: number
  sha1: Uint8Array
  /** MediaEntry.legacy_zip_filename, when present. */
  zipName?: number
}

/** MediaEntries { repeated MediaEntry entries = 1 } */
export function decodeMediaEntries(bytes: Uint8Array): MediaEntry[] {
  const entries: MediaEntry[] = []
  readMessage(bytes, 'the media list', (reader, field, wire) => {
    if (field !== 1 || !isBytes(wire)) return false
    const entry: MediaEntry = { name: '', size: 0, sha1: new Uint8Array() }
    readMessage(reader.bytes(), 'the media list', (inner, innerField, innerWire) => {
      if (innerField === 1 && isBytes(innerWire)) entry.name = inner.string(true)
      else if (innerField === 2 && isVarint(innerWire)) entry.size = inner.uint32()
      else if (innerField === 3 && isBytes(innerWire)) entry.sha1 = inner.bytes()
      else if (innerField === 255 && isVarint(innerWire)) entry.zipName = inner.uint32()
      else return false
      return true
    })
    entries.push(entry)
    return true
  })
  return entries
}

export interface NotetypeConfig {
  /** Notetype.Config.kind: 0 normal, 1 cloze. */
  kind: number
  /** StockNotetype.OriginalStockKind (0 unknown, 1 basic … 5 cloze, 6 image occlusion). */
  originalStockKind: number
}

export function decodeNotetypeConfig(bytes: Uint8Array): NotetypeConfig {
  const config: NotetypeConfig = { kind: 0, originalStockKind: 0 }
  readMessage(bytes, 'a note type', (reader, field, wire) => {
    if (field === 1 && isVarint(wire)) config.kind = reader.int32()
    else if (field === 9 && isVarint(wire)) config.originalStockKind = reader.int32()
    else return false
    return true
  })
  return config
}

export interface TemplateConfig {
  qfmt: string
  afmt: string
}

/** Notetype.Template.Config: q_format = 1, a_format = 2. */
export function decodeTemplateConfig(bytes: Uint8Array): TemplateConfig {
  const config: TemplateConfig = { qfmt: '', afmt: '' }
  readMessage(bytes, 'a card template', (reader, field, wire) => {
    if (field === 1 && isBytes(wire)) config.qfmt = reader.string()
    else if (field === 2 && isBytes(wire)) config.afmt = reader.string()
    else return false
    return true
  })
  return config
}

/** Deck.KindContainer { oneof kind { Normal normal = 1; Filtered filtered = 2 } }: filtered? */
export function decodeDeckIsFiltered(bytes: Uint8Array): boolean {
  let filtered = false
  readMessage(bytes, 'a deck', (_reader, field, wire) => {
    if (field === 2 && isBytes(wire)) filtered = true
    if (field === 1 && isBytes(wire)) filtered = false
    return false
  })
  return filtered
}
