/**
 * better-auth endpoints the app does not serve although its plugins mount them: the two-factor
 * plugin's emailed-code second factor (`/two-factor/send-otp`, `/two-factor/verify-otp`) needs an
 * `otpOptions.sendOTP`, which the app does not configure (its second factor is an authenticator
 * app or a backup code): they could only fail ("otp isn't configured"). app.ts answers them 404
 * before better-auth sees them, and the OpenAPI document leaves them out.
 */
export const unservedAuthPaths: readonly string[] = ['/two-factor/send-otp', '/two-factor/verify-otp']
