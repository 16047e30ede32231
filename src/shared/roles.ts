/** What an account may do: every account is a user; an admin also manages levels and roles. */
export type Role = 'user' | 'admin'

/**
 * The role of an account as the server stores or sends it (null, missing, unknown): anything but
 * admin is a user. The server reads sessions with it, and so does the client.
 */
export function roleOf(value: unknown): Role {
  return value === 'admin' ? 'admin' : 'user'
}
