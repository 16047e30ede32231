import { ConfigError, loadConfig } from './config'
import { FolderInUseError } from './db/folder-lock'
import { gracefulShutdown } from './http/shutdown'
import { openInstance } from './instance'
import { createLogger, wantsPrettyLogs } from './logger'
import { packageInfo, refuseOldNode } from './package-info'

refuseOldNode()
const { version } = packageInfo

async function main() {
  let config
  try {
    config = loadConfig(process.env, version)
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }

  const logger = createLogger({
    level: config.logLevel,
    pretty: await wantsPrettyLogs(config.nodeEnv),
  })
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'))

  let instance
  try {
    // Readiness answers 503 from the shutdown's signal on (`lifecycle`, below: no request comes before it).
    instance = await openInstance({ config, logger, isDraining: () => lifecycle.stopping })
  } catch (error) {
    if (error instanceof FolderInUseError) {
      logger.fatal({ holder: error.holder }, error.message)
      logger.flush()
      process.exit(1)
    }
    throw error
  }
  const { server, hub } = instance
  const lifecycle = gracefulShutdown(server, {
    logger,
    delayMs: config.shutdownDelayMs,
    timeoutMs: config.shutdownTimeoutMs,
    endStreams: () => hub.closeAll(),
    release: () => instance.close(),
    exit: (code) => process.exit(code),
  })
  server.listen(config.port, config.host, () => {
    const address = server.address()
    logger.info(
      {
        port: typeof address === 'object' && address ? address.port : config.port,
        url: config.appUrl,
        startupMs: Math.round(process.uptime() * 1000),
      },
      `Lingua ${version} listening`,
    )
  })

  server.on('error', (error: NodeJS.ErrnoException) => {
    logger.fatal(
      { err: error },
      error.code === 'EADDRINUSE'
        ? `port ${config.port} is already in use: set PORT to a free port`
        : 'server failed',
    )
    process.exit(1)
  })

  process.on('SIGTERM', () => lifecycle.shutdown('SIGTERM'))
  process.on('SIGINT', () => lifecycle.shutdown('SIGINT'))
}

main().catch((error: unknown) => {
  console.error('Lingua failed to start:', error)
  process.exit(1)
})
