import type { PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/browser'
import { authApi } from './auth-api'
import { isSessionNotFresh } from './http-error'
import { PasskeyError, browserFailure, credentialJson, nativeJson, nextCeremony, refusedWith, webAuthn } from './passkeys'

/** Adding a passkey to the signed-in account (passkeys.ts has the rest): the account page's. */

/** Asks the browser to make a passkey of this account. */
async function register(optionsJSON: PublicKeyCredentialCreationOptionsJSON): Promise<RegistrationResponseJSON> {
  if (nativeJson()) {
    const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(optionsJSON)
    return credentialJson<RegistrationResponseJSON>(navigator.credentials.create({ publicKey, signal: nextCeremony(undefined) }))
  }
  const { startRegistration } = await webAuthn()
  return startRegistration({ optionsJSON })
}

/** Adding a passkey wants a recent sign-in (better-auth's fresh session). */
function notFresh(error: unknown): never {
  if (isSessionNotFresh(error)) throw new PasskeyError('notFresh', error)
  throw error
}

/** Registers a new passkey of the signed-in account on this device (or a security key). */
export async function addPasskey(name: string): Promise<void> {
  const optionsJSON = await authApi.passkeyRegistrationOptions().catch(notFresh)
  let response: RegistrationResponseJSON
  try {
    response = await register(optionsJSON)
  } catch (error) {
    throw browserFailure(error)
  }
  await authApi.verifyPasskeyRegistration(response, name).catch((error: unknown) => {
    if (refusedWith(error, 400)) throw new PasskeyError('notCompleted', error)
    notFresh(error)
  })
}
