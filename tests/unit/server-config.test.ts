import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '@/server/config'

describe('server configuration', () => {
  it('works with nothing set', () => {
    const config = loadConfig({}, '1.0.0')
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      redisUrl: undefined,
      smtpUrl: undefined,
      appUrl: 'http://localhost:3000',
      logLevel: 'info',
      version: '1.0.0',
    })
    expect(config.dataDir).toMatch(/data$/)
  })

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://u:p@db:5432/lingua',
      REDIS_URL: 'redis://cache:6379',
      SMTP_URL: 'smtp://user:pass@mail:587',
      MAIL_FROM: 'Lingua <hi@example.com>',
      APP_URL: 'https://lingua.example/',
      ADMIN_EMAILS: ' Ada@Example.com, bob@example.com ,',
      LOG_LEVEL: 'debug',
    })
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: 'postgres://u:p@db:5432/lingua',
      appUrl: 'https://lingua.example',
      adminEmails: ['ada@example.com', 'bob@example.com'],
      logLevel: 'debug',
    })
  })

  it('logs requests only when LOG_REQUESTS says so, and those slower than 1 s whatever it says', () => {
    expect(loadConfig({})).toMatchObject({ logRequests: false, slowRequestMs: 1000 })
    expect(loadConfig({ LOG_REQUESTS: 'true', SLOW_REQUEST_MS: '250' })).toMatchObject({ logRequests: true, slowRequestMs: 250 })
    expect(loadConfig({ LOG_REQUESTS: '1' }).logRequests).toBe(true)
    expect(loadConfig({ LOG_REQUESTS: 'false' }).logRequests).toBe(false)
  })

  it('treats empty values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', ADMIN_EMAILS: ' ' })).toMatchObject({
      databaseUrl: undefined,
      adminEmails: undefined,
    })
  })

  it('serves sessions from the cache cookie for 60 s unless SESSION_CACHE_SECONDS says otherwise', () => {
    expect(loadConfig({}).sessionCacheSeconds).toBe(60)
    expect(loadConfig({ SESSION_CACHE_SECONDS: '5' }).sessionCacheSeconds).toBe(5)
    expect(loadConfig({ SESSION_CACHE_SECONDS: '1' }).sessionCacheSeconds).toBe(1)
    expect(loadConfig({ SESSION_CACHE_SECONDS: '300' }).sessionCacheSeconds).toBe(300)
  })

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    // 0 would turn the cache off in name only; beyond 5 minutes a revoked session lives too long.
    [{ SESSION_CACHE_SECONDS: '0' }, 'SESSION_CACHE_SECONDS'],
    [{ SESSION_CACHE_SECONDS: '301' }, 'SESSION_CACHE_SECONDS'],
    [{ SESSION_CACHE_SECONDS: '1.5' }, 'SESSION_CACHE_SECONDS'],
    [{ SESSION_CACHE_SECONDS: 'soon' }, 'SESSION_CACHE_SECONDS'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'http://x' }, 'REDIS_URL'],
    [{ ADMIN_EMAILS: 'not-an-email' }, 'ADMIN_EMAILS'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ LOG_REQUESTS: 'yes' }, 'LOG_REQUESTS'],
    [{ SLOW_REQUEST_MS: '0' }, 'SLOW_REQUEST_MS'],
  ])('refuses %j with a message naming the variable', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError)
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration:[\\s\\S]*${name}:`))
  })

  it('never prints a password from a bad URL', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://user:hunter2@db/x' })).toThrow(
      /^(?![\s\S]*hunter2)/,
    )
  })

  describe('sign-in providers', () => {
    const oidc = {
      OIDC_ISSUER: 'https://id.example.com/',
      OIDC_CLIENT_ID: 'lingua',
      OIDC_CLIENT_SECRET: 'hunter2-secret',
    }

    it('offers none with nothing set', () => {
      expect(loadConfig({}).providers).toEqual([])
    })

    it('reads an OpenID provider, with the default scopes and the host as its name', () => {
      expect(loadConfig(oidc).providers).toEqual([
        {
          id: 'oidc',
          name: 'id.example.com',
          clientId: 'lingua',
          clientSecret: 'hunter2-secret',
          issuer: 'https://id.example.com',
          scopes: ['openid', 'email', 'profile'],
        },
      ])
      expect(loadConfig({ ...oidc, OIDC_NAME: 'Acme', OIDC_SCOPES: 'openid,email' }).providers[0]).toMatchObject({
        name: 'Acme',
        scopes: ['openid', 'email'],
      })
    })

    it('reads the GitHub and Google presets, in button order after the OpenID provider', () => {
      const config = loadConfig({
        ...oidc,
        GOOGLE_CLIENT_ID: 'g',
        GOOGLE_CLIENT_SECRET: 'gs',
        GITHUB_CLIENT_ID: 'h',
        GITHUB_CLIENT_SECRET: 'hs',
      })
      expect(config.providers.map(({ id, name }) => [id, name])).toEqual([
        ['oidc', 'id.example.com'],
        ['github', 'GitHub'],
        ['google', 'Google'],
      ])
    })

    it.each([
      [{ OIDC_ISSUER: 'https://id.example.com' }, /OIDC_CLIENT_ID, OIDC_CLIENT_SECRET: must be set with OIDC_ISSUER/],
      [{ GITHUB_CLIENT_ID: 'h' }, /GITHUB_CLIENT_SECRET: must be set with GITHUB_CLIENT_ID/],
      [{ ...oidc, OIDC_ISSUER: 'ftp://id.example.com' }, /OIDC_ISSUER: must be a URL/],
      [{ ...oidc, OIDC_SCOPES: 'email profile' }, /OIDC_SCOPES: must include openid/],
    ])('refuses an incomplete or wrong provider: %o', (env, message) => {
      expect(() => loadConfig(env)).toThrow(message)
    })

    it('never prints a client secret', () => {
      expect(() => loadConfig({ GITHUB_CLIENT_SECRET: 'x'.repeat(2001), GITHUB_CLIENT_ID: 'h' })).toThrow(
        /^(?![\s\S]*xxxx)/,
      )
    })
  })
})
