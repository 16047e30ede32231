import { z } from 'zod/mini'

/** PRODUCT §5: passwords are 8–128 characters (the server checks strength as well). */
export const PASSWORD_MIN_LENGTH = 8
export const PASSWORD_MAX_LENGTH = 128
export const NAME_MAX_LENGTH = 100
/** Sign-in codes and authenticator codes are six digits. */
export const CODE_LENGTH = 6
/** How long the "check your email" screens wait before another email may be asked for. */
export const RESEND_COOL_DOWN_SECONDS = 60

const email = z.string().check(z.trim(), z.toLowerCase(), z.maxLength(254), z.email())
const password = z.string().check(z.minLength(PASSWORD_MIN_LENGTH), z.maxLength(PASSWORD_MAX_LENGTH))
/** A person's name as shown in the app (the server checks it too). */
export const nameSchema = z.string().check(z.trim(), z.minLength(1), z.maxLength(NAME_MAX_LENGTH))
const name = nameSchema
const code = z.string().check(z.trim(), z.regex(/^\d{6}$/))

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
/** Avatars are loaded over HTTPS only (the page's CSP allows no other remote images). */
export const isHttpsUrl = (value: string) => value.length <= 2000 && /^https:\/\/\S+$/i.test(value)

export const profileSchema = z.object({
  name,
  image: z.string().check(
    z.trim(),
    z.refine((value) => value === '' || isHttpsUrl(value), { params: { url: true } }),
  ),
})
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
