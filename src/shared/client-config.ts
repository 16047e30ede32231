/** A provider people can sign in with ("Continue with {name}"), as configured on the server. */
export interface SignInProvider {
  /** better-auth's provider id: `oidc` (OIDC_*), `github`, `google`. */
  id: string
  name: string
}

/** What the client reads from `/config.json` at start: one build runs against any backend. */
export interface ClientConfig {
  apiBaseUrl: string
  appName: string
  version: string
  /** The configured providers, in button order; empty when none is configured. */
  providers: SignInProvider[]
}
