import type { TestProject } from 'vitest/node'
import type { ConformanceDocument } from './openapi-conformance'
import { startServer } from './server'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The server's /api/openapi.json, read once per run (it does not depend on the configuration). */
    openapiDocument: ConformanceDocument
  }
}

/**
 * Before the API tests: reads the OpenAPI document from a server of the build under test, so that
 * tests/helpers/api-setup.ts can check every answer of every test against it without asking the
 * servers of the tests themselves (whose logs and rate limits the tests count).
 */
export default async function setup(project: TestProject): Promise<void> {
  const server = await startServer()
  try {
    const response = await fetch(`${server.url}/api/openapi.json`)
    if (response.status !== 200) throw new Error(`GET /api/openapi.json answered ${response.status}`)
    project.provide('openapiDocument', (await response.json()) as ConformanceDocument)
  } finally {
    await server.stop()
  }
}
