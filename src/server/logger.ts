import pino, { type Logger } from 'pino'

/** Paths whose values never reach the log. */
export const redactPaths = [
  'password',
  '*.password',
  'newPassword',
  '*.newPassword',
  'currentPassword',
  '*.currentPassword',
  'token',
  '*.token',
  'otp',
  '*.otp',
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
]

export function createLogger(options: { level: string; pretty: boolean }): Logger {
  return pino({
    level: options.level,
    base: undefined,
    redact: { paths: redactPaths, censor: '[redacted]' },
    ...(options.pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { colorize: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' },
          },
        }
      : {}),
  })
}

/** Pretty output only in development, on a terminal, and when pino-pretty is installed. */
export async function wantsPrettyLogs(nodeEnv: string): Promise<boolean> {
  if (nodeEnv !== 'development' || !process.stdout.isTTY) return false
  try {
    await import('pino-pretty')
    return true
  } catch {
    return false
  }
}
