import type { BetterAuthOptions } from 'better-auth'
import { genericOAuth } from 'better-auth/plugins'
import type { ProviderConfig } from '@/server/config'

/**
 * Where each provider's sign-in page is (the origin of its authorization endpoint): GitHub's and
 * Google's, and an OpenID provider's issuer: the providers the README lists (Keycloak, Auth0, Okta,
 * Entra ID, Authentik) serve their authorization endpoint on the issuer's origin.
 */
export function providerPageOrigins(providers: readonly ProviderConfig[]): string[] {
  const fixed = { github: 'https://github.com', google: 'https://accounts.google.com' } as const
  return providers.map((provider) => (provider.id === 'oidc' ? new URL(provider.issuer ?? '').origin : fixed[provider.id]))
}

/**
 * The providers people sign in with (docs/security.md, "Provider sign-in"): an OpenID Connect
 * provider found by discovery (better-auth's generic OAuth plugin: authorization code with PKCE
 * S256, `state`, and a `nonce` bound to the ID token, which is verified against the provider's
 * JWKS, issuer and audience), and the GitHub and Google presets (better-auth's social providers).
 */
export function signInProviders(providers: readonly ProviderConfig[]) {
  const oidc = providers.find((provider) => provider.id === 'oidc')
  const preset = (id: 'github' | 'google') => {
    const found = providers.find((provider) => provider.id === id)
    return found ? { [id]: { clientId: found.clientId, clientSecret: found.clientSecret } } : {}
  }
  const socialProviders: BetterAuthOptions['socialProviders'] = { ...preset('github'), ...preset('google') }
  return {
    socialProviders,
    plugins: oidc?.issuer
      ? [
          genericOAuth({
            config: [
              {
                providerId: oidc.id,
                name: oidc.name,
                discoveryUrl: `${oidc.issuer}/.well-known/openid-configuration`,
                clientId: oidc.clientId,
                clientSecret: oidc.clientSecret,
                scopes: oidc.scopes,
                pkce: true,
                // An ID token is required and checked (signature, iss, aud, exp, nonce): without a
                // usable discovery document the provider is not offered at all.
                requireIdTokenVerification: true,
                // Signing out of Lingua does not sign the person out of their provider.
                disableProviderLogout: true,
              },
            ],
          }),
        ]
      : [],
  }
}
