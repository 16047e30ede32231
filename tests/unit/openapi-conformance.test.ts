import { describe, expect, it } from 'vitest'
import { conformanceChecker, type ConformanceDocument } from '../helpers/openapi-conformance'

/** A small document in the app's style: a literal path beside a template, a shared error response. */
const document: ConformanceDocument = {
  paths: {
    '/api/things/order': { put: { responses: { '204': {} } } },
    '/api/things/{id}': {
      get: {
        responses: {
          '200': {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { id: { type: 'integer' }, email: { type: 'string', format: 'email' } },
                  required: ['id'],
                },
              },
            },
          },
          '404': { $ref: '#/components/responses/NotFound' },
        },
      },
    },
  },
  components: {
    responses: {
      NotFound: {
        content: {
          'application/json': {
            schema: { type: 'object', properties: { error: { type: 'object' } }, required: ['error'] },
          },
        },
      },
    },
  },
}
const check = conformanceChecker(document)
const json = 'application/json; charset=UTF-8'

describe('the OpenAPI conformance check of the API tests', () => {
  it('passes answers the document promises', () => {
    expect(check({ method: 'GET', target: '/api/things/7?x=1', status: 200, contentType: json, body: '{"id":7}' })).toBeUndefined()
    expect(check({ method: 'HEAD', target: '/api/things/7', status: 200, contentType: json, body: '' })).toBeUndefined()
    expect(check({ method: 'GET', target: '/api/things/8', status: 404, contentType: json, body: '{"error":{}}' })).toBeUndefined()
    expect(check({ method: 'PUT', target: '/api/things/order', status: 204, contentType: null, body: '' })).toBeUndefined()
  })

  it('names an undocumented status, a wrong content type, a body that is not JSON and one off its schema', () => {
    expect(check({ method: 'GET', target: '/api/things/7', status: 500, contentType: json, body: '{}' })).toBe(
      'GET /api/things/{id}: status 500 is not documented (200, 404)',
    )
    expect(check({ method: 'GET', target: '/api/things/7', status: 200, contentType: 'text/html', body: '<p>' })).toMatch(
      /^GET \/api\/things\/\{id\} 200: content type "text\/html", documented: application\/json$/,
    )
    expect(check({ method: 'GET', target: '/api/things/7', status: 200, contentType: json, body: 'oops' })).toMatch(/the body is not JSON/)
    expect(check({ method: 'GET', target: '/api/things/7', status: 200, contentType: json, body: '{"id":"7"}' })).toMatch(
      /the body does not match its schema: \/id must be integer/,
    )
    expect(check({ method: 'GET', target: '/api/things/7', status: 200, contentType: json, body: '{"id":7,"email":"x"}' })).toMatch(
      /\/email must match format "email"/,
    )
    // A shared response is checked against its component's schema.
    expect(check({ method: 'GET', target: '/api/things/8', status: 404, contentType: json, body: '{}' })).toMatch(/must have required property 'error'/)
  })

  it('matches literal paths before templates and leaves paths and methods it does not list to other checks', () => {
    expect(check({ method: 'PUT', target: '/api/things/order', status: 200, contentType: json, body: '{}' })).toMatch(
      /^PUT \/api\/things\/order: status 200 is not documented/,
    )
    expect(check({ method: 'DELETE', target: '/api/things/7', status: 500, contentType: json, body: '' })).toBeUndefined()
    expect(check({ method: 'GET', target: '/api/other', status: 500, contentType: json, body: '' })).toBeUndefined()
  })
})
