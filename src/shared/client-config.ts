import { z } from 'zod/mini'

/** What the client reads from `/config.json` at start: one build runs against any backend. */
export const clientConfigSchema = z.object({
  apiBaseUrl: z.string(),
  appName: z.string(),
  version: z.string(),
  features: z.object({
    /** Sign-in with an emailed one-time code. */
    emailCode: z.boolean(),
  }),
})

export type ClientConfig = z.infer<typeof clientConfigSchema>
