import { describe, expect, it } from 'vitest'
import { spawnServer } from '../helpers/server'

describe('configuration errors', () => {
  it.each([
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['APP_URL', { APP_URL: 'not a url' }],
  ])('refuses to start with an invalid %s, naming it on stderr', async (variable, env) => {
    const server = await spawnServer({ env })
    const exit = await server.exited
    expect(exit).toEqual({ code: 1, signal: null })
    expect(server.stderr.join('\n')).toContain(variable)
  })

  it('does not print the password of an invalid database URL', async () => {
    const server = await spawnServer({
      env: { DATABASE_URL: 'mysql://lingua:hunter2@db.example/lingua' },
    })
    expect((await server.exited).code).toBe(1)
    const output = server.logs.join('\n')
    expect(output).toContain('DATABASE_URL')
    expect(output).not.toContain('hunter2')
  })
})
