import fc from 'fast-check'
import type { HeaderChange } from './shots'
import { headerText } from './values'

export interface HeadersChange {
  headers: HeaderChange[]
  /** Refuses any write by itself (a cross-site request: 403). */
  refusesWrites: boolean
  /** Refuses any request with a body by itself (not JSON: 415). */
  refusesBodies: boolean
}

const change = (headers: HeaderChange[], refuses: { writes?: boolean; bodies?: boolean } = {}): HeadersChange => ({
  headers,
  refusesWrites: refuses.writes ?? false,
  refusesBodies: refuses.bodies ?? false,
})

/** Missing, wrong and duplicated headers, as a browser, a script or an attacker might send them. */
export function headerChanges(port: number): fc.Arbitrary<HeadersChange> {
  const self = `http://127.0.0.1:${port}`
  const cookie = fc.oneof(
    headerText,
    headerText.map((v) => `lingua.session_token=${v}`),
    headerText.map((v) => `{session}; lingua.session_token=${v}`),
    // Garbage in the cache cookie: in its own alphabet (base64url), and any text at all.
    headerText.map((v) => `lingua.session_data=${Buffer.from(v, 'latin1').toString('base64url')}; {session}`),
    headerText.map((v) => `{session}; lingua.session_data=${Buffer.from(v).toString('base64url').slice(3)}`),
    headerText.map((v) => `lingua.session_data=${v}; {session}`),
    headerText.map((v) => `{session}; lingua.session_data.0=${v}`),
    fc.constantFrom('=', ';;;', 'a=b=c', '{session}; {session}', 'lingua.session_token=', 'lingua.session_data=; {session}', `lingua.session_token=${'x'.repeat(8000)}`, '%00=%00', '$Version=1; {session}'),
  )
  const other = fc.oneof(
    fc.tuple(
      fc.constantFrom('X-Request-Id', 'Accept', 'Accept-Language', 'Accept-Encoding', 'X-Forwarded-Proto', 'X-Forwarded-Host', 'Forwarded', 'Authorization', 'User-Agent', 'If-None-Match', 'If-Modified-Since', 'Range', 'X-HTTP-Method-Override', 'Content-Encoding', 'Referer'),
      fc.oneof(headerText, fc.constantFrom('', '*', 'gzip', 'Bearer x.y.z', 'DELETE', 'evil.example', 'https', '127.0.0.1, ::1, evil', 'zz-ZZ;q=2', 'a'.repeat(6000))),
    ),
    fc.tuple(fc.constant('Expect'), fc.constant('100-continue')),
    // Before the address the proxy added, which stays the last entry (see headersOf).
    fc.tuple(
      fc.constant('X-Forwarded-For'),
      fc.oneof(headerText, fc.constantFrom('', 'unknown', '::1', '999.1.1.1', '127.0.0.1, ::1, evil', 'a'.repeat(6000))).map((v) => `${v}, {address}`),
    ),
    fc.tuple(fc.constant('Host'), fc.constantFrom('evil.example', 'localhost', 'LOCALHOST', `127.0.0.1:${port}`, `localhost:${port}`)),
  )
  return fc.oneof(
    // Not JSON, or no type at all: 415 for any body.
    fc
      .constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx', 'json', 'application/xml', 'text/json')
      .map((value) => change([{ name: 'Content-Type', action: 'set', value }], { bodies: true })),
    fc.constant(change([{ name: 'Content-Type', action: 'remove' }], { bodies: true })),
    // Twice, or JSON written oddly: whatever the server makes of it, it is no 5xx.
    fc
      .constantFrom('application/json', 'text/plain', 'application/json; charset=utf-8')
      .map((value) => change([{ name: 'Content-Type', action: 'add', value }])),
    fc
      .constantFrom('APPLICATION/JSON', 'application/json;;;', 'application/json; charset=utf-16', 'application/problem+json', 'application/json\t', ' application/json', '')
      .map((value) => change([{ name: 'Content-Type', action: 'set', value }])),
    // No Origin: a script, which may write.
    fc.constant(change([{ name: 'Origin', action: 'remove' }])),
    // Another origin, or none that parses: a cross-site write (403).
    fc
      .constantFrom('null', 'https://evil.example', `http://localhost:${port}.evil.example`, 'http://[', `${self}/path`, `HTTP://127.0.0.1:${port}`, 'file://', '*')
      .map((value) => change([{ name: 'Origin', action: 'set', value }], { writes: true })),
    fc.constantFrom(self, 'https://evil.example').map((value) => change([{ name: 'Origin', action: 'add', value }])),
    fc.constantFrom('cross-site', 'same-site', 'garbage').map((value) =>
      change(
        [
          { name: 'Origin', action: 'remove' },
          { name: 'Sec-Fetch-Site', action: 'set', value },
        ],
        { writes: true },
      ),
    ),
    cookie.map((value) => change([{ name: 'Cookie', action: 'set', value }])),
    fc
      .tuple(other, fc.constantFrom<'set' | 'add'>('set', 'add'))
      .map(([[name, value], action]) => change([{ name, action: name === 'X-Forwarded-For' ? 'set' : action, value }])),
  )
}

/**
 * Whether the chosen changes get any write (or any request with a body) refused by themselves.
 * The last change of a header wins: only a refusing change that stays in force counts.
 */
export function refusedByHeaders(chosen: HeadersChange[], sendsBody: boolean): boolean {
  const headers = chosen.flatMap((c) => c.headers)
  const inForce = (c: HeadersChange) =>
    c.headers.every((h) => headers.filter((other) => other.name.toLowerCase() === h.name.toLowerCase()).at(-1) === h)
  return chosen.some((c) => inForce(c) && (c.refusesWrites || (c.refusesBodies && sendsBody)))
}
