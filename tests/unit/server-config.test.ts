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
  ])('refuses %j with a message naming the variable', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError)
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration:[\\s\\S]*${name}:`))
  })

  it('never prints a password from a bad URL', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://user:hunter2@db/x' })).toThrow(
      /^(?![\s\S]*hunter2)/,
    )
  })
})
