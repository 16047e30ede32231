import { useSyncExternalStore } from 'react'
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/browser'
import { type SignInAnswer, authApi } from './auth-api'
import { reloadOnceFor } from './chunk-reload'
import { ApiRequestError, isSessionNotFresh } from './http-error'

/**
 * Passkeys (WebAuthn). The browser library loads on first use, in a chunk of its own: the pages
 * only ask whether the browser has passkeys at all, which needs none of it.
 */
const webAuthn = () =>
  import('@simplewebauthn/browser').catch((error: unknown) => {
    // A deployment replaced the chunk: reload once, as for a route's chunk.
    reloadOnceFor(error)
    throw error
  })

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

/** The browser's refusal (a DOMException's name, kept by the library's WebAuthnError). */
function browserFailure(error: unknown): PasskeyError {
  const name = error instanceof Error ? error.name : ''
  if (name === 'NotAllowedError') return new PasskeyError('cancelled', error)
  if (name === 'AbortError') return new PasskeyError('aborted', error)
  if (name === 'InvalidStateError') return new PasskeyError('alreadyRegistered', error)
  return new PasskeyError('browser', error)
}

const refusedWith = (error: unknown, status: number) => error instanceof ApiRequestError && error.status === status

/** Adding a passkey wants a recent sign-in (better-auth's fresh session). */
function notFresh(error: unknown): never {
  if (isSessionNotFresh(error)) throw new PasskeyError('notFresh', error)
  throw error
}

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
  const [{ startAuthentication, WebAuthnAbortService }, optionsJSON] = await Promise.all([
    webAuthn(),
    authApi.passkeySignInOptions(),
  ])
  if (signal?.aborted) throw new PasskeyError('aborted')
  // Cancels this ceremony only while it runs: once settled, another may be the current one.
  const stop = () => WebAuthnAbortService.cancelCeremony()
  signal?.addEventListener('abort', stop, { once: true })
  let response: AuthenticationResponseJSON
  try {
    response = await startAuthentication({ optionsJSON, useBrowserAutofill: autofill })
  } catch (error) {
    throw browserFailure(error)
  } finally {
    signal?.removeEventListener('abort', stop)
  }
  try {
    return await authApi.verifyPasskeySignIn(response)
  } catch (error) {
    if (refusedWith(error, 401)) throw new PasskeyError('notRegistered', error)
    if (refusedWith(error, 400)) throw new PasskeyError('notCompleted', error)
    throw error
  }
}

/** Registers a new passkey of the signed-in account on this device (or a security key). */
export async function addPasskey(name: string): Promise<void> {
  const [{ startRegistration }, optionsJSON] = await Promise.all([
    webAuthn(),
    authApi.passkeyRegistrationOptions().catch(notFresh),
  ])
  let response: RegistrationResponseJSON
  try {
    response = await startRegistration({ optionsJSON })
  } catch (error) {
    throw browserFailure(error)
  }
  await authApi.verifyPasskeyRegistration(response, name).catch((error: unknown) => {
    if (refusedWith(error, 400)) throw new PasskeyError('notCompleted', error)
    notFresh(error)
  })
}
