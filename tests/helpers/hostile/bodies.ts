import fc from 'fast-check'
import type { Operation } from './openapi'
import { methodsWithBody } from './shots'
import { shapedBody, wrongValueFor } from './values'

const MAX_BODY_BYTES = 64 * 1024

/**
 * Whether some reader of the server could parse these bytes as JSON: they decode UTF-8 leniently
 * (a BOM dropped), and better-auth trims the text first (any Unicode space, BOMs included).
 */
function parsesAsJson(bytes: Buffer): boolean {
  const text = new TextDecoder().decode(bytes)
  for (const candidate of [text, text.trim()]) {
    try {
      JSON.parse(candidate)
      return true
    } catch {
      // The next reading, or none.
    }
  }
  return false
}

export const jsonBytes = (value: unknown) => Buffer.from(JSON.stringify(value))

const malformedTexts = [
  '{',
  '}',
  '{"a":}',
  "{'a':1}",
  '{"a":1,}',
  '[1,]',
  'NaN',
  'undefined',
  '{"a":1}{"b":2}',
  '{"a":1} trailing',
  '/* comment */ {}',
  '{"a":"\\x41"}',
  '{"a":"\\u12"}',
  '{"a":"unterminated',
  '{"a":01}',
  '{"a":.5}',
  '{"a":+1}',
  '{"a":Infinity}',
  '{a:1}',
  '{"a" 1}',
  '\u0000',
  '{"a":"\u0000"}',
  '{"a":"tab\there"}',
  '\ufeff\ufeff{}',
  'true false',
  '{"a":[}',
  `${'['.repeat(5000)}`,
  `${'{"a":'.repeat(3000)}1`,
]

export interface HostileBody {
  bytes: Buffer
  why: string
  /** Refused by any endpoint that reads a body, whatever else the request says. */
  refusedByItself: boolean
}

/** Bodies built to be invalid for `operation`; `refusedByItself` says when that is certain. */
export function hostileBody(operation: Operation): fc.Arbitrary<HostileBody> {
  const readsBody = operation.body !== undefined
  const hasRequired = readsBody && operation.required.length > 0
  const shaped = shapedBody(operation)
  const requiredField = hasRequired ? fc.constantFrom(...operation.required) : fc.constant('')
  const mistyped = fc
    .tuple(shaped, requiredField)
    .chain(([body, field]) =>
      wrongValueFor(operation.body?.properties?.[field]).map((value) => ({ ...body, [field]: value })),
    )

  const kinds: fc.Arbitrary<HostileBody>[] = [
    // Cut anywhere: JSON that ends too early.
    fc.tuple(shaped, fc.nat()).map(([body, cut]) => {
      const text = JSON.stringify(body)
      const bytes = Buffer.from(text.slice(0, 1 + (cut % Math.max(1, text.length - 1))))
      return { bytes, why: 'truncated JSON', refusedByItself: readsBody && !parsesAsJson(bytes) }
    }),
    fc.oneof(fc.constantFrom(...malformedTexts), fc.string({ minLength: 1, maxLength: 40 })).map((text) => {
      const bytes = Buffer.from(text)
      return { bytes, why: 'malformed JSON', refusedByItself: readsBody && !parsesAsJson(bytes) }
    }),
    // Not an object at all.
    fc.oneof(fc.jsonValue({ maxDepth: 2 }).filter((v) => typeof v !== 'object' || v === null || Array.isArray(v)), fc.constant(null)).map((value) => ({
      bytes: jsonBytes(value),
      why: 'JSON that is not an object',
      refusedByItself: hasRequired,
    })),
    mistyped.map((body) => ({ bytes: jsonBytes(body), why: 'a required field of the wrong type', refusedByItself: hasRequired })),
    fc.tuple(shaped, requiredField).map(([body, field]) => {
      const { [field]: _dropped, ...rest } = body
      return { bytes: jsonBytes(rest), why: `required field "${field}" missing`, refusedByItself: hasRequired }
    }),
    // The same key twice: JSON.parse keeps the last, here the wrong one.
    fc.tuple(shaped, requiredField).chain(([body, field]) =>
      wrongValueFor(operation.body?.properties?.[field]).map((value) => {
        const text = JSON.stringify({ ...body, [field]: 'placeholder' })
        const bytes = Buffer.from(`${text.slice(0, -1)},${JSON.stringify(field)}:${JSON.stringify(value)}}`)
        return { bytes, why: 'a duplicated key, the last of the wrong type', refusedByItself: hasRequired }
      }),
    ),
    // Prototype pollution and mass assignment, next to a field of the wrong type.
    mistyped.map((body) => {
      const text = JSON.stringify(body)
      const extra = '"__proto__":{"role":"admin","isAdmin":true},"constructor":{"prototype":{"role":"admin"}},"role":"admin","emailVerified":true,"id":"x"'
      const bytes = Buffer.from(text === '{}' ? `{${extra}}` : `{${extra},${text.slice(1)}`)
      return { bytes, why: '__proto__, constructor and privileged fields', refusedByItself: hasRequired }
    }),
    // Over the 64 KiB limit: refused before anything reads it.
    fc.tuple(fc.integer({ min: 1, max: 2 * MAX_BODY_BYTES }), fc.constantFrom('json-string', 'whitespace', 'array')).map(([extra, form]) => {
      const size = MAX_BODY_BYTES + extra
      const bytes =
        form === 'whitespace'
          ? Buffer.from(`{}${' '.repeat(size)}`)
          : form === 'array'
            ? Buffer.from(`[${'0,'.repeat(size / 2)}0]`)
            : Buffer.from(`{"a":"${'x'.repeat(size)}"}`)
      return { bytes, why: `a body of ${bytes.length} bytes`, refusedByItself: methodsWithBody.has(operation.method) }
    }),
    // Deeply nested, yet under the limit: recursion in a parser or validator would overflow.
    fc.tuple(fc.integer({ min: 100, max: 10_000 }), fc.constantFrom('[', '{"a":'), requiredField, fc.boolean()).map(([depth, open, field, inField]) => {
      const close = open === '[' ? ']' : '}'
      const nested = `${open.repeat(depth)}${open === '[' ? '' : '1'}${close.repeat(depth)}`
      const bytes = Buffer.from(inField && hasRequired ? `{${JSON.stringify(field)}:${nested}}` : nested)
      // Whatever the nesting, a required field is missing or of the wrong type.
      return { bytes, why: `nested ${depth} deep`, refusedByItself: hasRequired }
    }),
    // Long strings everywhere, with one field of the wrong type.
    fc.tuple(mistyped, fc.integer({ min: 1000, max: 12_000 })).map(([body, length]) => {
      const long = Object.fromEntries(
        Object.entries(body).map(([key, value]) => [
          key,
          typeof value === 'string' && !/password/i.test(key) ? `${value}${'ß'.repeat(length)}`.slice(0, length) : value,
        ]),
      )
      const bytes = jsonBytes(long)
      return { bytes, why: 'long strings', refusedByItself: hasRequired && bytes.length <= MAX_BODY_BYTES }
    }),
    // Bytes that are not UTF-8 (overlong, surrogate halves, stray continuation bytes) in a string.
    fc.tuple(mistyped, fc.constantFrom([0xff], [0xc0, 0xae], [0xed, 0xa0, 0x80], [0x80], [0xf8, 0x88, 0x80, 0x80, 0x80])).map(([body, raw]) => {
      const text = JSON.stringify({ invalidUtf8: 'MARK', ...body })
      const [before, after] = text.split('MARK')
      const bytes = Buffer.concat([Buffer.from(before ?? ''), Buffer.from(raw), Buffer.from(after ?? '')])
      return { bytes, why: 'invalid UTF-8 in a string', refusedByItself: hasRequired }
    }),
  ]
  return fc.oneof(...kinds)
}
