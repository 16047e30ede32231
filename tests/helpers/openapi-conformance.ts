import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'

/**
 * Response conformance (what Schemathesis calls it): whether an answer of the API is one the
 * OpenAPI document promises for its operation — a documented status, a documented content type,
 * and a body valid against the documented schema (JSON Schema 2020-12, as OpenAPI 3.1 says).
 * Answers to a path or method the document does not list promise nothing (404/405 there are
 * checked by the error-shape checks of the tests).
 */

interface MediaType {
  schema?: unknown
}
interface ResponseObject {
  $ref?: string
  content?: Record<string, MediaType>
}
interface Operation {
  responses?: Record<string, ResponseObject>
}
export interface ConformanceDocument {
  paths: Record<string, Record<string, Operation>>
  components?: { responses?: Record<string, ResponseObject> }
}

export interface AnswerToCheck {
  method: string
  /** The request target as sent: path and query (the query is ignored). */
  target: string
  status: number
  contentType: string | null | undefined
  body: string
}

const DOCUMENT_ID = 'https://lingua.test/openapi.json'

/** JSON Pointer of a path of keys, as a URI fragment. */
const pointer = (keys: string[]) =>
  `#/${keys.map((key) => encodeURIComponent(key.replaceAll('~', '~0').replaceAll('/', '~1'))).join('/')}`

/** Returns a checker of answers against `document`: undefined when one conforms, else what does not. */
export function conformanceChecker(document: ConformanceDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true })
  ajv.addFormat('email', /^[^\s@]+@[^\s@]+$/)
  ajv.addFormat('date-time', (value: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i.test(value) && !Number.isNaN(Date.parse(value)))
  ajv.addFormat('uri', (value: string) => URL.canParse(value))
  // A calendar day (the practice's days, the overview's weeks): a real one, not only its shape.
  ajv.addFormat('date', (value: string) => {
    const day = Date.parse(`${value}T00:00:00Z`)
    return /^\d{4}-\d\d-\d\d$/.test(value) && !Number.isNaN(day) && new Date(day).toISOString().startsWith(value)
  })
  ajv.addSchema(document, DOCUMENT_ID)

  // Literal paths before templates that also match them (`/order` before `/{id}`).
  const templates = Object.keys(document.paths)
    .sort((a, b) => a.split('{').length - b.split('{').length)
    .map((path) => ({
      path,
      pattern: new RegExp(
        `^${path
          .split(/(\{\w+\})/)
          .map((part) => (/^\{\w+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
          .join('')}$`,
      ),
    }))
  const validators = new Map<string, ValidateFunction>()
  const validatorOf = (keys: string[]) => {
    const ref = pointer(keys)
    let validate = validators.get(ref)
    if (!validate) validators.set(ref, (validate = ajv.compile({ $ref: `${DOCUMENT_ID}${ref}` })))
    return validate
  }

  return (answer: AnswerToCheck): string | undefined => {
    // As the router reads it: dot segments resolved, `%2F` not a slash.
    let pathname: string
    try {
      pathname = new URL(answer.target, 'http://localhost').pathname
    } catch {
      return undefined
    }
    const method = answer.method.toLowerCase() === 'head' ? 'get' : answer.method.toLowerCase()
    const template = templates.find(({ pattern }) => pattern.test(pathname))
    const operation = template && document.paths[template.path]?.[method]
    if (!template || !operation) return undefined
    const name = `${method.toUpperCase()} ${template.path}`
    const status = String(answer.status)
    let response = operation.responses?.[status] ?? operation.responses?.default
    if (!response) return `${name}: status ${status} is not documented (${Object.keys(operation.responses ?? {}).join(', ')})`
    let keys = ['paths', template.path, method, 'responses', status]
    if (response.$ref) {
      const component = response.$ref.split('/').pop() ?? ''
      response = document.components?.responses?.[component] ?? {}
      keys = ['components', 'responses', component]
    }
    const content = response.content ?? {}
    const types = Object.keys(content)
    if (answer.method.toUpperCase() === 'HEAD' || answer.status === 204 || answer.status === 304) return undefined
    if (types.length === 0) return undefined
    const type = (answer.contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
    if (!types.includes(type)) return `${name} ${status}: content type ${JSON.stringify(answer.contentType)}, documented: ${types.join(', ')}`
    if (!content[type]?.schema || !/\bjson\b/.test(type)) return undefined
    let body: unknown
    try {
      body = JSON.parse(answer.body)
    } catch {
      return `${name} ${status}: the body is not JSON: ${JSON.stringify(answer.body.slice(0, 200))}`
    }
    const validate = validatorOf([...keys, 'content', type, 'schema'])
    if (validate(body)) return undefined
    const errors = (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params)}`)
    return `${name} ${status}: the body does not match its schema: ${errors.join('; ')} in ${JSON.stringify(body).slice(0, 400)}`
  }
}
