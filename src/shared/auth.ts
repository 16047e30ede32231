import { z } from 'zod/mini'
import { PASSKEY_NAME_MAX_LENGTH } from './sign-in-methods'

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

const email = z.string().check(z.trim(), z.toLowerCase(), z.maxLength(254), z.email())
const password = z.string().check(z.minLength(PASSWORD_MIN_LENGTH), z.maxLength(PASSWORD_MAX_LENGTH))
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

/** A person's name as shown in the app (the server checks it too). */
export const nameSchema = z.string().check(
  z.trim(),
  z.minLength(1),
  z.maxLength(NAME_MAX_LENGTH),
  z.refine((value) => nameProblem(value) !== 'control', { params: { nameControl: true } }),
  z.refine((value) => nameProblem(value) !== 'blank', { params: { nameBlank: true } }),
)
const name = nameSchema
const code = z.string().check(z.trim(), z.regex(CODE_PATTERN))

/** "Confirm password" must repeat "Password"; the message is chosen by `params.mismatch`. */
const passwordsMatch = z.refine<{ password: string; confirmPassword: string }>(
  (values) => values.password === values.confirmPassword,
  { path: ['confirmPassword'], params: { mismatch: true } },
)

export const emailFormSchema = z.object({ email })
export const signInSchema = z.object({ email, password: z.string().check(z.minLength(1)) })
export const codeSignInSchema = z.object({ email, code })
export const totpCodeSchema = z.object({ code })
/** An authenticator code (six digits) or a backup code (letters, digits and a dash). */
export const secondFactorSchema = z.object({
  code: z.string().check(z.trim(), z.minLength(CODE_LENGTH), z.maxLength(32)),
})
export const newPasswordSchema = z
  .object({ password, confirmPassword: z.string() })
  .check(passwordsMatch)
export const registerSchema = z
  .object({ name, email, password, confirmPassword: z.string() })
  .check(passwordsMatch)
export const profileSchema = z.object({ name })
export const changeEmailSchema = z.object({ newEmail: email })
export const changePasswordSchema = z
  .object({ currentPassword: z.string().check(z.minLength(1)), password, confirmPassword: z.string() })
  .check(passwordsMatch)
export const passwordConfirmSchema = z.object({ password: z.string().check(z.minLength(1)) })

export type RegisterValues = z.infer<typeof registerSchema>
export type SignInValues = z.infer<typeof signInSchema>
export type CodeSignInValues = z.infer<typeof codeSignInSchema>
export type EmailFormValues = z.infer<typeof emailFormSchema>
export type TotpCodeValues = z.infer<typeof totpCodeSchema>
export type SecondFactorValues = z.infer<typeof secondFactorSchema>
export type NewPasswordValues = z.infer<typeof newPasswordSchema>
export type ProfileValues = z.infer<typeof profileSchema>
export type ChangeEmailValues = z.infer<typeof changeEmailSchema>
export type ChangePasswordValues = z.infer<typeof changePasswordSchema>
export type PasswordConfirmValues = z.infer<typeof passwordConfirmSchema>

/** A passkey's name, e.g. "MacBook": visible text, 1–60 characters (the server checks it too). */
export const passkeyNameSchema = z.string().check(
  z.trim(),
  z.minLength(1),
  z.maxLength(PASSKEY_NAME_MAX_LENGTH),
  z.refine((value) => nameProblem(value) === undefined, { params: { nameControl: true } }),
)
export const passkeyNameFormSchema = z.object({ name: passkeyNameSchema })
