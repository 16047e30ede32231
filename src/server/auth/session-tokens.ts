/**
 * better-auth hands the raw session token to whoever reads its answers: `get-session`
 * (`session.token`), `list-sessions` (each session's `token`), and the sign-in answers (`token`).
 * A token is a session for 400 days, and the cookie that carries it is HttpOnly so that a script
 * injected into the page cannot read it: these answers would undo that. Every successful JSON
 * answer of better-auth loses its `token` fields here; sessions are named by their `id` (revoked
 * with `DELETE /api/me/sessions/{id}`).
 */
export async function withoutSessionTokens(response: Response): Promise<Response> {
  if (response.status >= 300 || !response.headers.get('content-type')?.startsWith('application/json')) return response
  const text = await response.text()
  // Most answers carry none: they go out as they came.
  if (!text.includes('"token"')) return new Response(text, response)
  const headers = new Headers(response.headers)
  headers.delete('Content-Length')
  return new Response(JSON.stringify(stripTokens(JSON.parse(text) as unknown)), {
    status: response.status,
    statusText: response.statusText,
    headers,
  })
}

/** The value without `token` keys, at the top, in `session`, and in each item of a list. */
function stripTokens(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripTokens)
  if (typeof value !== 'object' || value === null) return value
  const { token: _token, ...rest } = value as Record<string, unknown>
  if (typeof rest.session === 'object' && rest.session !== null) rest.session = stripTokens(rest.session)
  return rest
}
