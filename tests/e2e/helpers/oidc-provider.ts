// The browser tests' OpenID provider (tests/helpers/oidc-provider.ts): a real OpenID Connect
// provider the app signs people in with (issuer http://127.0.0.1:<E2E_OIDC_PORT>), and an HTTP
// control endpoint where the tests add users, read what the app sent, and make the provider
// misbehave (GET /health, /requests, POST /users, /tamper, /stop, /start, /slow, /sso). Started by
// Playwright as a web server before the app, which reads the discovery document when it starts.
import { startOidcControlServer, startOidcProvider } from '../../helpers/oidc-provider'

const providerPort = Number(process.env.E2E_OIDC_PORT ?? 4027)
const controlPort = Number(process.env.E2E_OIDC_CONTROL_PORT ?? 4028)
/** The app's callback (`${APP_URL}/api/auth/callback/oidc`); several separated by commas. */
const redirectUris = (
  process.env.E2E_OIDC_REDIRECT_URIS ??
  `http://127.0.0.1:${process.env.E2E_PORT ?? 4173}/api/auth/callback/oidc`
).split(',')

const provider = await startOidcProvider({
  port: providerPort,
  redirectUris,
  ...(process.env.E2E_OIDC_CLIENT_ID ? { clientId: process.env.E2E_OIDC_CLIENT_ID } : {}),
  ...(process.env.E2E_OIDC_CLIENT_SECRET ? { clientSecret: process.env.E2E_OIDC_CLIENT_SECRET } : {}),
  ...(process.env.E2E_OIDC_EXISTING_EMAIL ? { existingEmail: process.env.E2E_OIDC_EXISTING_EMAIL } : {}),
})
const control = await startOidcControlServer(provider, { port: controlPort })

const stop = () => {
  void Promise.all([control.stop(), provider.stop()]).then(() => process.exit(0))
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
