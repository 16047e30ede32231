import { z } from 'zod/mini'

/** The `/fetching-post` demo form: what the server validates and echoes back. */
export const demoMessageSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(50)),
  email: z.string().check(z.trim(), z.toLowerCase(), z.email()),
  message: z.string().check(z.trim(), z.minLength(10), z.maxLength(500)),
})

export type DemoMessage = z.infer<typeof demoMessageSchema>

export interface DemoEcho {
  received: DemoMessage
  receivedAt: string
  requestId: string
}

export interface DemoServerTime {
  databaseTime: string
  requestId: string
}

/** Reports the client sends when the fallback error screen is skipped for a bot. */
export const clientErrorReportSchema = z.object({
  status: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(999))),
  message: z.string().check(z.maxLength(2000)),
  path: z.string().check(z.maxLength(2000)),
  userAgent: z.string().check(z.maxLength(1000)),
})
export type ClientErrorReport = z.infer<typeof clientErrorReportSchema>
