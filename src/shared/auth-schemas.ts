import { z } from 'zod/mini'
import {
  CODE_LENGTH,
  CODE_PATTERN,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  nameProblem,
} from './auth'
import { PASSKEY_NAME_MAX_LENGTH } from './sign-in-methods'

/** The account forms' schemas, shared by the client's forms and the server's checks. */

const email = z.string().check(z.trim(), z.toLowerCase(), z.maxLength(254), z.email())
const password = z.string().check(z.minLength(PASSWORD_MIN_LENGTH), z.maxLength(PASSWORD_MAX_LENGTH))
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
/** Deleting an account: its email typed out (compared by the form) and the password. */
export const deleteAccountSchema = z.extend(passwordConfirmSchema, { typed: z.string() })

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
export type DeleteAccountValues = z.infer<typeof deleteAccountSchema>

/** A passkey's name, e.g. "MacBook": visible text, 1–60 characters (the server checks it too). */
export const passkeyNameSchema = z.string().check(
  z.trim(),
  z.minLength(1),
  z.maxLength(PASSKEY_NAME_MAX_LENGTH),
  z.refine((value) => nameProblem(value) === undefined, { params: { nameControl: true } }),
)
export const passkeyNameFormSchema = z.object({ name: passkeyNameSchema })
