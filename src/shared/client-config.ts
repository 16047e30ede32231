/** What the client reads from `/config.json` at start: one build runs against any backend. */
export interface ClientConfig {
  apiBaseUrl: string
  appName: string
  version: string
}
