import { params } from '@nanostores/i18n'
import { i18n } from '@/client/lib/i18n'

/** Registration, sign-in and the emailed links (labels of docs/product.md §7). */
export const authMessages = i18n('auth', {
  name: 'Name',
  email: 'Email',
  password: 'Password',
  confirmPassword: 'Confirm password',
  newPassword: 'New password',

  registerTitle: 'Create an account',
  registerLead: 'Track your level from A1 to C2 and see how far you have come.',
  createAccount: 'Create account',
  creatingAccount: 'Creating account…',
  haveAccount: 'Already have an account?',
  signIn: 'Sign in',

  checkEmailTitle: 'Check your email',
  signUpSent: params<{ email: string }>(
    'We sent an email to {email}. Open the link in it to finish creating your account.',
  ),
  recoverySent: params<{ email: string }>(
    'If an account uses {email}, a link to choose a new password is on its way. It works for one hour.',
  ),
  notReceived: 'Nothing arrived? Look in the spam folder, or send it again.',
  sendAgain: 'Send again',
  sendAgainIn: params<{ seconds: string }>('Send again in {seconds} s'),
  sentAgain: 'Sent again. Check your inbox.',
  useAnotherEmail: 'Use a different email',

  signInTitle: 'Sign in',
  signInLead: 'Welcome back.',
  signingIn: 'Signing in…',
  forgotPassword: 'Forgot password?',
  signInWithCode: 'Sign in with a code',
  signInWithPassword: 'Sign in with a password',
  noAccount: 'New here?',
  createAnAccount: 'Create an account',

  or: 'or',
  continueWith: params<{ name: string }>('Continue with {name}'),
  openingProvider: params<{ name: string }>('Opening {name}…'),
  signInWithPasskey: 'Sign in with a passkey',
  waitingForPasskey: 'Waiting for your passkey…',
  passkeyCancelled: 'Passkey sign-in was cancelled.',
  passkeyNotRegistered: 'This passkey is not registered with Lingua. Sign in another way.',
  passkeyNotCompleted: 'The passkey sign-in could not be completed. Try again.',
  passkeyBrowserFailed: 'This browser could not use a passkey here. Sign in another way.',

  codeLead: 'We email you a 6-digit code that signs you in.',
  sendCode: 'Send code',
  sendingCode: 'Sending…',
  code: 'Code',
  codeSent: params<{ email: string }>(
    'If an account uses {email}, a 6-digit code is on its way. It works for 10 minutes.',
  ),
  verify: 'Verify',
  verifying: 'Verifying…',

  recoveryTitle: 'Reset your password',
  recoveryLead: 'Enter your email and we send you a link to choose a new password.',
  sendLink: 'Send link',
  sendingLink: 'Sending…',
  backToSignIn: 'Back to sign in',

  mfaTitle: 'Two-step verification',
  mfaLead:
    'Enter the 6-digit code from your authenticator app. Lost your phone? Enter one of your backup codes instead.',
  authenticationCode: 'Authentication code',
  wrongAuthenticationCode: 'This code is not right. Enter the current code from the app, or a backup code.',
})
