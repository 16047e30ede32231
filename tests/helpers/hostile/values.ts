import fc from 'fast-check'
import type { Operation, Schema } from './openapi'

/** Unicode and text that breaks naive code: NUL, lone surrogates, bidi marks, combining marks… */
const edgeSnippets = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\udbffy',
  '\u202e',
  '\u200f',
  '\u200e',
  '\u061c',
  '\u200b',
  '\u200d',
  '\ufeff',
  'e\u0301',
  'a\u0300\u0301\u0302\u0303\u0304\u0305\u0306\u0307',
  '👩‍👩‍👧‍👦',
  '🇫🇷',
  '🏳️‍🌈',
  '\uffff',
  '\ufffe',
  '\ufffd',
  '\u2028',
  '\u2029',
  '\r\n',
  '\t',
  '\u0007',
  '\u001b[31m',
  '\\',
  '"',
  "'",
  '<script>alert(1)</script>',
  '%00',
  '%',
  '${7*7}',
  '{{7*7}}',
  '../',
  '..\\',
  'İ',
  'ß',
  'ﬃ',
  '𝔘𝔫𝔦',
  '١٢٣',
  '１２３',
  '\u00a0',
  '\u3000',
  "' OR '1'='1",
  '"; DROP TABLE "user"; --',
  'null',
  'NaN',
  '1e309',
  '__proto__',
  'a@b.c',
]

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.constantFrom(...edgeSnippets), { minLength: 1, maxLength: 6 }).map((parts) => parts.join('')) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
  // Overlong: past every documented maximum, yet inside the 64 KiB body limit.
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('a', 'é', '\u0000', '👩‍👩‍👧‍👦', 'x\u0301', '\ud800'), fc.integer({ min: 129, max: 4000 }))
      .map(([unit, times]) => unit.repeat(times)),
  },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', ' \t\n ') },
)

/** Text a header can carry (Node refuses control characters and anything above U+00FF). */
export const headerText = fc.string({
  unit: fc.integer({ min: 0x20, max: 0xff }).filter((code) => code !== 0x7f).map((code) => String.fromCharCode(code)),
  maxLength: 60,
})

const weirdNumber = fc.constantFrom(0, -1, -0.5, 1.5, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), -(2 ** 63), 1e308, Number.MAX_SAFE_INTEGER)

/**
 * Integers of every size JSON carries exactly, up to 2^53: the database's columns are 32-bit, and
 * a number above them once failed in PostgreSQL (500) where the schema should have refused it.
 */
const anyInteger = fc.oneof(
  fc.integer(),
  fc.integer({ min: -(2 ** 53), max: 2 ** 53 }),
  fc.integer({ min: 2 ** 31 - 4, max: 2 ** 31 + 4 }),
  weirdNumber,
)

/** A value of the type the schema documents (with hostile content). */
export function valueFor(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const variants = schema?.anyOf ?? schema?.oneOf
  if (variants?.length) return fc.oneof(...variants.map((variant) => valueFor(variant, depth)))
  if (schema?.enum?.length) return fc.oneof(fc.constantFrom(...schema.enum), hostileString)
  switch (typesOf(schema)[0]) {
    case 'string':
      return hostileString
    case 'integer':
      return anyInteger
    case 'number':
      return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), weirdNumber)
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array':
      return depth > 2 ? fc.constant([]) : fc.array(valueFor(schema?.items, depth + 1), { maxLength: 4 })
    default:
      return fc.jsonValue({ maxDepth: 2 })
  }
}

function typesOf(schema: Schema | undefined): string[] {
  if (!schema) return []
  const variants = schema.anyOf ?? schema.oneOf
  if (variants) return variants.flatMap(typesOf)
  if (schema.enum) return [...new Set(schema.enum.map((value) => (value === null ? 'null' : typeof value)))]
  return [schema.type ?? []].flat()
}

const jsonTypes: Record<string, fc.Arbitrary<unknown>> = {
  string: fc.oneof(fc.constant('1'), hostileString),
  number: anyInteger,
  boolean: fc.boolean(),
  null: fc.constant(null),
  array: fc.array(fc.oneof(anyInteger, hostileString), { maxLength: 3 }),
  object: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
}

/** A JSON value of none of the types the schema allows (a float where an integer is wanted). */
export function wrongValueFor(schema: Schema | undefined): fc.Arbitrary<unknown> {
  const allowed = new Set(typesOf(schema).map((type) => (type === 'integer' ? 'number' : type)))
  const wrong = Object.entries(jsonTypes)
    .filter(([type]) => !allowed.has(type))
    .map(([, arbitrary]) => arbitrary)
  if (allowed.has('number') && typesOf(schema).includes('integer') && !typesOf(schema).includes('number')) {
    wrong.push(fc.constantFrom(0.5, 1.25, -3.75))
  }
  return fc.oneof(...wrong)
}

/**
 * Passwords stay short: the server checks a password's strength (zxcvbn) on the main thread before
 * anything else, up to a second per long password, which would make this file take minutes.
 */
export const shortHostileString = hostileString.map((text) => text.slice(0, 24))

/** A body with every documented field, each of its documented type, with hostile content. */
export function shapedBody(operation: Operation): fc.Arbitrary<Record<string, unknown>> {
  const properties = operation.body?.properties ?? {}
  return fc.record(
    Object.fromEntries(
      Object.entries(properties).map(([name, schema]) => [
        name,
        /password/i.test(name) && typesOf(schema).includes('string') ? shortHostileString : valueFor(schema),
      ]),
    ),
    { requiredKeys: operation.required.filter((name) => name in properties) },
  )
}
