/** The operations of /api/openapi.json the fuzzer fires at, with what their requests must carry. */

export interface Schema {
  type?: string | string[]
  properties?: Record<string, Schema>
  required?: string[]
  items?: Schema
  enum?: unknown[]
  anyOf?: Schema[]
  oneOf?: Schema[]
  $ref?: string
}
export interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string; schema?: Schema }[]
        requestBody?: { content: Record<string, { schema?: Schema }> }
      }
    >
  >
  components: { schemas: Record<string, Schema> }
}

export interface Operation {
  method: string
  /** The documented path, `{id}` and all. */
  path: string
  pathParams: string[]
  queryParams: string[]
  /** The JSON body's schema, for operations that read one. */
  body: Schema | undefined
  /** Top-level body fields that must be present: one of the wrong type makes a body invalid. */
  required: string[]
  auth: boolean
}

export function operationsOf(document: OpenApiDocument): Operation[] {
  const resolve = (schema: Schema | undefined): Schema | undefined =>
    schema?.$ref ? document.components.schemas[schema.$ref.split('/').pop() ?? ''] : schema
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => {
      const body = resolve(operation.requestBody?.content['application/json']?.schema)
      const properties = Object.fromEntries(
        Object.entries(body?.properties ?? {}).map(([name, schema]) => [name, resolve(schema) ?? {}]),
      )
      return {
        method: method.toUpperCase(),
        path,
        pathParams: (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        body: operation.requestBody ? { ...body, properties } : undefined,
        required: operation.requestBody ? (body?.required ?? []) : [],
        auth: path.startsWith('/api/auth/'),
      }
    }),
  )
}
