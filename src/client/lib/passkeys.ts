import { useSyncExternalStore } from 'react'
import type { AuthenticationResponseJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser'
import { type SignInAnswer, authApi } from './auth-api'
import { reloadOnceFor } from './chunk-reload'
import { ApiRequestError } from './http-error'

/**
 * Passkeys (WebAuthn). A browser of WebAuthn level 3 (Chrome 129, Firefox 119, Safari 18.4 and
 * later) reads the server's options from JSON and writes its answer as JSON itself; for the others
 * the library that does it loads on first use, in a chunk of its own. The pages only ask whether
 * the browser has passkeys at all, which needs neither. Adding one (the account page) is
 * passkey-registration.ts, which the sign-in page does not load.
 */
export const webAuthn = () =>
  import('@simplewebauthn/browser').catch((error: unknown) => {
    // A deployment replaced the chunk: reload once, as for a route's chunk.
    reloadOnceFor(error)
    throw error
  })

/** Whether the browser converts WebAuthn's JSON itself (checked at each use: tests take it away). */
export function nativeJson(): boolean {
  return (
    typeof PublicKeyCredential.parseRequestOptionsFromJSON === 'function' &&
    typeof PublicKeyCredential.parseCreationOptionsFromJSON === 'function' &&
    typeof (PublicKeyCredential.prototype as Partial<PublicKeyCredential>).toJSON === 'function'
  )
}

/**
 * The ceremony running, if any: a browser runs one at a time, so a new one (the button pressed
 * while the email field's suggestions wait) ends the one before, as the library's
 * WebAuthnAbortService does.
 */
let ceremony: AbortController | undefined

export function nextCeremony(signal: AbortSignal | undefined): AbortSignal {
  ceremony?.abort(new DOMException('Another passkey ceremony started.', 'AbortError'))
  const own = new AbortController()
  ceremony = own
  signal?.addEventListener('abort', () => own.abort(new DOMException('The page left.', 'AbortError')), { once: true })
  return own.signal
}

/** The JSON of the browser's credential: the answer the server reads. */
export async function credentialJson<T>(asked: Promise<Credential | null>): Promise<T> {
  const credential = await asked
  if (!(credential instanceof PublicKeyCredential)) throw new DOMException('No passkey was given.', 'NotAllowedError')
  return credential.toJSON() as T
}

/** Asks the browser for a passkey of this site (in the dialog, or among the field's suggestions). */
async function authenticate(
  optionsJSON: PublicKeyCredentialRequestOptionsJSON,
  autofill: boolean,
  signal: AbortSignal | undefined,
): Promise<AuthenticationResponseJSON> {
  if (nativeJson()) {
    const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(optionsJSON)
    // The suggestions offer every passkey of the site: an allow list would narrow them.
    if (autofill) publicKey.allowCredentials = []
    const options: CredentialRequestOptions = { publicKey, signal: nextCeremony(signal), ...(autofill && { mediation: 'conditional' }) }
    return credentialJson<AuthenticationResponseJSON>(navigator.credentials.get(options))
  }
  const { startAuthentication, WebAuthnAbortService } = await webAuthn()
  if (signal?.aborted) throw new PasskeyError('aborted')
  // Cancels this ceremony only while it runs: once settled, another may be the current one.
  const stop = () => WebAuthnAbortService.cancelCeremony()
  signal?.addEventListener('abort', stop, { once: true })
  try {
    return await startAuthentication({ optionsJSON, useBrowserAutofill: autofill })
  } finally {
    signal?.removeEventListener('abort', stop)
  }
}

/** Why a passkey ceremony ended without success; the pages say each in their own words. */
export type PasskeyFailure =
  /** The browser's dialog was closed (or timed out): nothing to explain. */
  | 'cancelled'
  /** Replaced by another ceremony, or the page left: nothing to show. */
  | 'aborted'
  /** The server knows no such passkey (removed from the account, or never registered here). */
  | 'notRegistered'
  /** The server refused the answer: an expired challenge, or no user verification. */
  | 'notCompleted'
  /** This authenticator already holds a passkey of this account. */
  | 'alreadyRegistered'
  /** Adding a passkey takes a recent sign-in. */
  | 'notFresh'
  /** The browser or the authenticator failed in another way. */
  | 'browser'

export class PasskeyError extends Error {
  constructor(
    readonly reason: PasskeyFailure,
    cause?: unknown,
  ) {
    super(`Passkey ceremony failed: ${reason}`, { cause })
    this.name = 'PasskeyError'
  }
}

/** Whether the browser has WebAuthn (what the library's `browserSupportsWebAuthn` checks). */
function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function'
}

const unchanging = () => () => undefined

/**
 * `passkeysSupported()` in a component. The server renders pages as for a browser with passkeys
 * (nearly all; the sign-in page then keeps its layout), and so does the browser's first render,
 * which takes over that HTML; a browser without them drops the button afterwards.
 */
export function usePasskeysSupported(): boolean {
  return useSyncExternalStore(unchanging, passkeysSupported, () => true)
}

/** Whether the browser offers passkeys among the suggestions of a `webauthn` field. */
export async function passkeyAutofillAvailable(): Promise<boolean> {
  if (!passkeysSupported()) return false
  try {
    // Optional: browsers older than conditional mediation lack the method.
    return (await PublicKeyCredential.isConditionalMediationAvailable?.()) === true
  } catch {
    return false
  }
}

/** The browser's refusal (a DOMException's name, which the library's WebAuthnError keeps too). */
export function browserFailure(error: unknown): PasskeyError {
  const name = error instanceof Error ? error.name : ''
  if (name === 'NotAllowedError') return new PasskeyError('cancelled', error)
  if (name === 'AbortError') return new PasskeyError('aborted', error)
  if (name === 'InvalidStateError') return new PasskeyError('alreadyRegistered', error)
  return new PasskeyError('browser', error)
}

export const refusedWith = (error: unknown, status: number) => error instanceof ApiRequestError && error.status === status


/**
 * Signs in with a passkey: through the browser's dialog, or with `autofill` through the
 * suggestions of the email field (`autocomplete="username webauthn"`), which wait until one is
 * picked. Aborting `signal` stops that wait (the page left). Failures of the ceremony are
 * `PasskeyError`s; the API's others (network, rate limit) arrive as they are.
 */
export async function signInWithPasskey({
  autofill = false,
  signal,
}: { autofill?: boolean; signal?: AbortSignal } = {}): Promise<SignInAnswer> {
  const optionsJSON = await authApi.passkeySignInOptions()
  if (signal?.aborted) throw new PasskeyError('aborted')
  let response: AuthenticationResponseJSON
  try {
    response = await authenticate(optionsJSON, autofill, signal)
  } catch (error) {
    throw error instanceof PasskeyError ? error : browserFailure(error)
  }
  try {
    return await authApi.verifyPasskeySignIn(response)
  } catch (error) {
    if (refusedWith(error, 401)) throw new PasskeyError('notRegistered', error)
    if (refusedWith(error, 400)) throw new PasskeyError('notCompleted', error)
    throw error
  }
}

