import type { CDPSession, Page } from '@playwright/test'

// Chromium's virtual authenticator (the DevTools protocol's WebAuthn domain): a platform
// authenticator inside the browser that answers every passkey ceremony of the page at once, as a
// laptop's fingerprint reader would once touched. It belongs to one page (its tab), and survives
// the page's navigations.

async function credentialsOf(cdp: CDPSession, authenticatorId: string) {
  return (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials
}

/** A passkey in the authenticator: id, private key, user handle, signature counter. */
export type VirtualCredential = Awaited<ReturnType<typeof credentialsOf>>[number]

export interface VirtualAuthenticatorOptions {
  /** The fingerprint or PIN check succeeds (the UV flag). Default true. */
  isUserVerified?: boolean
  /** The authenticator can verify its user at all. Default true. */
  hasUserVerification?: boolean
}

export class VirtualAuthenticator {
  private constructor(
    private readonly cdp: CDPSession,
    readonly id: string,
  ) {}

  /** A passkey-capable authenticator (CTAP2, built in, resident keys) for `page`. */
  static async attach(page: Page, options: VirtualAuthenticatorOptions = {}): Promise<VirtualAuthenticator> {
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('WebAuthn.enable')
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        ctap2Version: 'ctap2_1',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: options.hasUserVerification ?? true,
        isUserVerified: options.isUserVerified ?? true,
        automaticPresenceSimulation: true,
      },
    })
    return new VirtualAuthenticator(cdp, authenticatorId)
  }

  /** The passkeys it holds (with their private keys, so another authenticator can take one). */
  async credentials(): Promise<VirtualCredential[]> {
    return credentialsOf(this.cdp, this.id)
  }

  /** Its only passkey (fails when it holds none or several). */
  async credential(): Promise<VirtualCredential> {
    const credentials = await this.credentials()
    if (credentials.length !== 1) throw new Error(`expected one passkey in the authenticator, found ${credentials.length}`)
    return credentials[0] as VirtualCredential
  }

  /** Puts a passkey (e.g. one taken from another authenticator) into this one. */
  async addCredential(credential: VirtualCredential) {
    await this.cdp.send('WebAuthn.addCredential', { authenticatorId: this.id, credential })
  }

  /** Whether the next fingerprint or PIN check succeeds. */
  async setUserVerified(isUserVerified: boolean) {
    await this.cdp.send('WebAuthn.setUserVerified', { authenticatorId: this.id, isUserVerified })
  }

  async detach() {
    await this.cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: this.id })
    await this.cdp.detach()
  }
}

/**
 * The page's browser offers no passkeys in the email field's suggestions (as one without
 * conditional mediation). The virtual authenticator answers such a waiting request at once, with
 * nobody picking anything: the sign-in page would sign in by itself before its button is pressed.
 */
export async function withoutPasskeyAutofill(page: Page) {
  await page.addInitScript(() => {
    PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false)
  })
}
