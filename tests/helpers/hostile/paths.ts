import fc from 'fast-check'
import type { Operation } from './openapi'
import { hostileString } from './values'

/** Path segments that name nothing: encodings of NUL, dot segments, huge or odd numbers, unicode. */
const oddSegments = [
  '%00',
  '..%2f',
  '..%2F..%2F..%2Fetc%2Fpasswd',
  '%2e%2e',
  '%2e',
  '%2f',
  '%5c',
  '-1',
  '0',
  '00',
  '01',
  '1.5',
  '1e3',
  '0x10',
  '+1',
  '%201',
  '1%20',
  '1%00',
  'NaN',
  'Infinity',
  '-0',
  '2147483648',
  '9007199254740993',
  '9'.repeat(400),
  '-9'.repeat(50),
  '%C0%AE%C0%AE',
  '%ED%A0%80',
  '%FF',
  '%',
  '%%',
  '%zz',
  '%u0041',
  '%D9%A1',
  '%EF%BC%91',
  '%E2%80%AE1',
  '%F0%9F%91%A9%E2%80%8D%F0%9F%91%A9',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  ';',
  '%3B',
  '%3F',
  '%23',
  '~',
  "'",
  '%27%20OR%201%3D1',
  'x'.repeat(3000),
]

/** Percent-encodes every byte of a string's UTF-8 (lone surrogates become U+FFFD's bytes). */
export const percentEncode = (text: string) =>
  [...Buffer.from(text)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('')

const oddSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...oddSegments) },
  // Almost an id: what sloppy parsing (parseInt, Number, a loose pattern) would take for one.
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.integer({ min: 1, max: 8 }), fc.constantFrom('.0', '.5', 'e0', 'e3', 'abc', '%00', '%3B', ',2', '-', '_', '%2E', '0x', 'n', '%E2%80%8B', '%D9%A0'))
      .map(([id, suffix]) => `${id}${suffix}`),
  },
  { weight: 2, arbitrary: hostileString.filter((s) => s.length > 0 && s.length < 500).map(percentEncode) },
  // Raw bytes, percent-encoded: not necessarily UTF-8.
  { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 12 }).map((bytes) => [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')) },
  { weight: 1, arbitrary: fc.oneof(fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String), fc.double().map(String)) },
)

/**
 * Whether a segment could name an existing row: a small positive integer once decoded. Those are
 * not hostile and are left out where a request must be refused.
 */
export function mayNameARow(segment: string): boolean {
  let decoded = segment
  try {
    decoded = decodeURIComponent(segment)
  } catch {
    // Left as it is, as the router leaves it.
  }
  return /^\s*\+?0*\d{1,6}\s*$/.test(decoded)
}

export const hostileSegment = oddSegment.filter((segment) => !mayNameARow(segment))

/** Query strings with duplicated, array-style, unknown and out-of-range parameters. */
export function hostileQuery(operation: Operation): fc.Arbitrary<string> {
  const names = fc.oneof(
    { weight: 3, arbitrary: operation.queryParams.length ? fc.constantFrom(...operation.queryParams) : fc.constant('q') },
    { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', '', '[]', 'page[]', 'pageSize[0]', 'a[b][c]', 'sort[]', 'x', 'q%00') },
    { weight: 1, arbitrary: hostileString.map(percentEncode) },
  )
  const values = fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom('-1', '0', '1.5', '1e3', '99999999999999999999', '2147483648', '0x10', '', '%201', '1%20', '+1', '%2B1', 'NaN', 'true', '[]', '{}', '%00', '%zz', '%', '-updatedAt', 'position,name') },
    { weight: 2, arbitrary: hostileString.filter((s) => s.length < 2000).map(percentEncode) },
    { weight: 1, arbitrary: fc.oneof(fc.bigInt().map(String), fc.double().map(String)) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 10 }).map((bytes) => [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')) },
  )
  const pair = fc.oneof(
    { weight: 5, arbitrary: fc.tuple(names, values).map(([name, value]) => `${name}=${value}`) },
    { weight: 1, arbitrary: fc.constantFrom('', '=', '&', '==', 'a', '=x', '%', '%26=%3D') },
  )
  return fc.array(pair, { minLength: 1, maxLength: 8 }).map((pairs) => `?${pairs.join('&')}`)
}

/** The path with each of its parameters filled by `fill`. */
/** The path with each of its parameters filled by `fill`. */
export function pathOf(operation: Operation, fill: (name: string) => string): string {
  return operation.path.replace(/\{(\w+)\}/g, (_whole, name: string) => fill(name))
}
