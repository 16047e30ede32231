/**
 * The rules of accounts that need no validation library: lengths, the code's form, names. The
 * schemas built on them are in auth-schemas.ts, which the browser loads only when a form is
 * validated (docs/decisions/0017-react.md).
 */

/** Passwords have 8–128 characters (the server checks strength as well; docs/product.md §5). */
export const PASSWORD_MIN_LENGTH = 8
export const PASSWORD_MAX_LENGTH = 128
export const NAME_MAX_LENGTH = 100
/** Sign-in codes and authenticator codes are six digits. */
export const CODE_LENGTH = 6
/** A sign-in code or an authenticator code: exactly `CODE_LENGTH` digits. */
export const CODE_PATTERN = new RegExp(`^\\d{${CODE_LENGTH}}$`)
/** How long the "check your email" screens wait before another email may be asked for. */
export const RESEND_COOL_DOWN_SECONDS = 60

/**
 * What a name may not hold: control characters (C0 and C1, so no ANSI escape sequences either)
 * and the marks that reorder text around them (bidirectional embeddings, overrides and isolates),
 * with which a name can make the text after it read backwards.
 */
const controlOrBidi = /[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u
/** What shows nothing: spaces, zero-width and other format characters, Hangul and Braille fillers. */
const invisible = /[\p{White_Space}\p{Cf}\u034F\u115F\u1160\u2800\u3164\uFFA0]/gu

/** Whether a name holds a character it may not, or shows nothing at all. */
export function nameProblem(name: string): 'control' | 'blank' | undefined {
  if (controlOrBidi.test(name)) return 'control'
  if (name.replace(invisible, '') === '') return 'blank'
  return undefined
}

/**
 * A name as text people can read, from a source that cannot be asked again (an identity
 * provider): control and direction characters taken out; undefined when nothing visible is left.
 */
export function readableName(name: string): string | undefined {
  const cleaned = name.replace(new RegExp(controlOrBidi.source, 'gu'), '').trim().slice(0, NAME_MAX_LENGTH)
  return nameProblem(cleaned) ? undefined : cleaned
}

/**
 * "Continue with {name}" is a plain HTML form posted here (the server answers with the redirect to
 * the provider): it works before the app's scripts have loaded, and without them.
 */
export const PROVIDER_FORM_PATH = '/api/sign-in/provider'
