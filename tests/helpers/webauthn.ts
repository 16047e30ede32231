import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto'
import { expect } from 'vitest'
import type { Client } from './auth-client'
import { expectJson } from './server'

/*
 * A software authenticator for the API tests: one P-256 key, and WebAuthn answers written byte by
 * byte (attestation "none"), so that a test can register a passkey over HTTP and then send the
 * answers a browser never would — another origin, another relying party, a stale challenge, no
 * user presence, a counter gone back. The browser tests use Chromium's virtual authenticator.
 */

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest()

/** Authenticator data flags: user present, user verified, attested credential data included. */
const FLAGS = { up: 0x01, uv: 0x04, at: 0x40 } as const

/** The length of a CBOR byte string's header, then the bytes (lengths below 65 536). */
function cborBytes(bytes: Buffer): Buffer {
  const header =
    bytes.length < 24
      ? Buffer.from([0x40 + bytes.length])
      : bytes.length < 256
        ? Buffer.from([0x58, bytes.length])
        : Buffer.from([0x59, bytes.length >> 8, bytes.length & 0xff])
  return Buffer.concat([header, bytes])
}

const cborText = (text: string) => Buffer.concat([Buffer.from([0x60 + text.length]), Buffer.from(text)])

export interface AssertionChanges {
  origin?: string
  rpId?: string
  challenge?: string
  flags?: number
  counter?: number
}

export class SoftAuthenticator {
  readonly credentialId = randomBytes(16)
  readonly #keys = generateKeyPairSync('ec', { namedCurve: 'P-256' })

  constructor(
    readonly rpId: string,
    readonly origin: string,
  ) {}

  get id(): string {
    return this.credentialId.toString('base64url')
  }

  /** The public key as COSE (EC2, ES256, P-256). */
  #coseKey(): Buffer {
    const { x = '', y = '' } = this.#keys.publicKey.export({ format: 'jwk' })
    return Buffer.concat([
      Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]),
      Buffer.from(x, 'base64url'),
      Buffer.from([0x22, 0x58, 0x20]),
      Buffer.from(y, 'base64url'),
    ])
  }

  #authData(rpId: string, flags: number, counter: number, attested: boolean): Buffer {
    const count = Buffer.alloc(4)
    count.writeUInt32BE(counter)
    const parts: Buffer[] = [sha256(rpId), Buffer.from([flags]), count]
    if (attested) {
      const length = Buffer.alloc(2)
      length.writeUInt16BE(this.credentialId.length)
      parts.push(Buffer.alloc(16), length, this.credentialId, this.#coseKey())
    }
    return Buffer.concat(parts)
  }

  #clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }))
  }

  /** The answer to `navigator.credentials.create()` for `challenge`. */
  registration(challenge: string) {
    const authData = this.#authData(this.rpId, FLAGS.up | FLAGS.uv | FLAGS.at, 0, true)
    const attestationObject = Buffer.concat([
      Buffer.from([0xa3]),
      cborText('fmt'),
      cborText('none'),
      cborText('attStmt'),
      Buffer.from([0xa0]),
      cborText('authData'),
      cborBytes(authData),
    ])
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: this.#clientData('webauthn.create', challenge, this.origin).toString('base64url'),
        attestationObject: attestationObject.toString('base64url'),
        transports: ['internal'],
      },
    }
  }

  /** The answer to `navigator.credentials.get()` for `challenge`, with what `changes` falsifies. */
  assertion(challenge: string, changes: AssertionChanges = {}) {
    const authData = this.#authData(changes.rpId ?? this.rpId, changes.flags ?? FLAGS.up | FLAGS.uv, changes.counter ?? 0, false)
    const clientData = this.#clientData('webauthn.get', changes.challenge ?? challenge, changes.origin ?? this.origin)
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), this.#keys.privateKey)
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: clientData.toString('base64url'),
        authenticatorData: authData.toString('base64url'),
        signature: signature.toString('base64url'),
      },
    }
  }
}

/** Registers a new passkey for the signed-in `owner` (a fresh session) over HTTP. */
export async function registerPasskey(owner: Client): Promise<SoftAuthenticator> {
  const url = new URL(owner.server.url)
  const authenticator = new SoftAuthenticator(url.hostname, url.origin)
  const options = await expectJson<{ challenge: string }>(await owner.request('GET', '/api/auth/passkey/generate-register-options'))
  const registered = await owner.request('POST', '/api/auth/passkey/verify-registration', {
    response: authenticator.registration(options.challenge),
    name: 'Soft key',
  })
  expect(registered.status, await registered.clone().text()).toBe(200)
  return authenticator
}

/** Asks for a sign-in challenge as `client` and answers it with `changes`. */
export async function passkeySignIn(client: Client, authenticator: SoftAuthenticator, changes: AssertionChanges = {}): Promise<Response> {
  const options = await expectJson<{ challenge: string }>(await client.request('GET', '/api/auth/passkey/generate-authenticate-options'))
  return client.request('POST', '/api/auth/passkey/verify-authentication', {
    response: authenticator.assertion(options.challenge, changes),
  })
}

/**
 * The client's mistakes of a passkey sign-in the outside probe of issue 29 sent, each to be
 * refused and logged at warn (never as the server's error): another origin (and one of 45 000
 * characters), another relying party, a challenge that is not the one given, no user presence,
 * and a signature counter gone back (after a sign-in at `counterSeen`).
 */
export const passkeyMistakes = (counterSeen: number): [what: string, changes: AssertionChanges][] => [
  ['another origin', { origin: 'https://evil.example' }],
  ['another relying party', { rpId: 'evil.example' }],
  ['a challenge not given', { challenge: randomBytes(32).toString('base64url') }],
  ['no user presence', { flags: FLAGS.uv }],
  ['a counter gone back', { counter: counterSeen - 1 }],
  ['an origin of 45 000 characters', { origin: `https://${'a'.repeat(45_000)}.example` }],
]
