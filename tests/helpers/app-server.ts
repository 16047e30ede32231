import { loadConfig } from '@/server/config'
import { type Instance, openInstance } from '@/server/instance'
import { createLogger } from '@/server/logger'
import { packageInfo } from '@/server/package-info'
import { prepareServer, type ServerOptions, type TestServer, track, untrack } from './server'

const { version } = packageInfo

const instances = new WeakMap<TestServer, Instance>()

/** The instance of a server `startAppServer` started (e.g. to sweep the reminders now). */
export function instanceOf(server: TestServer): Instance {
  const instance = instances.get(server)
  if (!instance) throw new Error('instanceOf: not a server of startAppServer')
  return instance
}

/**
 * Starts the app in the test's own process: the same instance as `main()` makes (database,
 * migrations, Redis, mail, auth, the HTTP server of node-server.ts) from the same environment as
 * a spawned server gets, listening on 127.0.0.1, with its JSON log kept in `logs`. No process to
 * start and no bundle to load, so a test file is ready in a fraction of the time. Tests of the
 * process itself (signals, exit codes, stderr, two processes on one folder) spawn one instead
 * (`startServer`).
 *
 * better-auth reads NODE_ENV from the process, once, when it is loaded (it then turns its own
 * origin and CSRF checks off, or on): a server of another NODE_ENV than the test's (`test`) runs
 * in a process of its own.
 */
export async function startAppServer(options: ServerOptions & { now?: () => Date } = {}): Promise<TestServer> {
  const nodeEnv = options.env?.NODE_ENV ?? 'test'
  if (nodeEnv !== process.env.NODE_ENV) {
    throw new Error(`startAppServer: NODE_ENV=${nodeEnv} in a process of NODE_ENV=${process.env.NODE_ENV}: use startServer`)
  }
  const { port, env, dataDir, clientDir, database, cleanUp } = await prepareServer(options)
  const logs: string[] = []
  try {
    const config = loadConfig({ HOST: '127.0.0.1', PORT: String(port), ...env }, version)
    const logger = createLogger({
      level: config.logLevel,
      pretty: false,
      destination: { write: (line: string) => void logs.push(line.trimEnd()) },
    })
    let stopping = false
    const instance = await openInstance({ config, logger, isDraining: () => stopping, ...(options.now ? { now: options.now } : {}) })
    const { server: http, hub } = instance
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject)
      http.listen(port, '127.0.0.1', () => {
        http.off('error', reject)
        resolve()
      })
    })
    let stopped: Promise<void> | undefined
    const server: TestServer = {
      url: `http://127.0.0.1:${port}`,
      port,
      logs,
      clientDir,
      dataDir,
      database,
      stop() {
        stopped ??= (async () => {
          stopping = true
          untrack(server)
          hub.closeAll()
          const closed = new Promise((resolve) => http.close(resolve))
          http.closeAllConnections()
          await closed
          try {
            await instance.close()
          } finally {
            await cleanUp()
          }
        })()
        return stopped
      },
    }
    track(server)
    instances.set(server, instance)
    return server
  } catch (error) {
    await cleanUp()
    throw new Error(`The app did not start. Its log:\n${logs.join('\n')}`, { cause: error })
  }
}
