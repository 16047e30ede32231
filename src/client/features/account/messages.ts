import { params } from '@nanostores/i18n'
import { i18n } from '@/client/lib/i18n'

export const accountMessages = i18n('account', {
  title: 'Account',
  lead: 'Your profile, sign-in methods and devices.',
  save: 'Save',
  saving: 'Saving…',
  saved: 'Saved',
  password: 'Password',
  currentPassword: 'Current password',
  cancel: 'Cancel',

  profileTitle: 'Profile',
  name: 'Name',
  avatarUrl: 'Avatar URL',
  avatarHint: 'A link to a picture (https://…). Leave empty to show your initials.',

  emailTitle: 'Email',
  currentEmail: params<{ email: string }>('You sign in with {email}.'),
  verified: 'Verified',
  notVerified: 'Not verified',
  newEmail: 'New email',
  changeEmail: 'Change email',
  emailChangeSent: params<{ email: string }>(
    'We sent a link to {email}. Your address changes when you open it.',
  ),

  passwordTitle: 'Password',
  newPassword: 'New password',
  confirmPassword: 'Confirm password',
  changePassword: 'Change password',
  passwordChanged: 'Password changed. Your other devices were signed out.',

  mfaTitle: 'Two-step verification',
  mfaOn: 'On: signing in asks for a code from your authenticator app.',
  mfaOff: 'Off: your password or an emailed code is enough to sign in.',
  turnOn: 'Turn on',
  turnOff: 'Turn off',
  mfaPasswordLead: 'Enter your password to continue.',
  mfaScan: 'Scan this QR code with an authenticator app, or enter the key by hand.',
  qrLabel: 'QR code for your authenticator app',
  setupKey: 'Key',
  backupCodesTitle: 'Backup codes',
  backupCodesLead:
    'Each code signs you in once if you lose your phone. Keep them somewhere safe: they are shown only now.',
  copyCodes: 'Copy codes',
  copied: 'Copied',
  authenticationCode: 'Authentication code',
  wrongMfaCode: 'This code is not right. Enter the code the app shows now.',
  confirmMfa: 'Verify and turn on',
  mfaEnabled: 'Two-step verification is on.',
  mfaDisabled: 'Two-step verification is off.',

  sessionsTitle: 'Active sessions',
  sessionsLead: 'Devices signed in to your account.',
  thisDevice: 'This device',
  unknownDevice: 'Unknown device',
  lastActive: params<{ time: string }>('Last active {time}'),
  revoke: 'Sign out',
  revokeSession: params<{ device: string }>('Sign out {device}'),
  sessionRevoked: 'That device is signed out.',
  signOutEverywhere: 'Sign out everywhere',
  signOutEverywhereLead: 'Ends every session, this one too.',

  deleteTitle: 'Delete account',
  deleteLead:
    'This deletes your account and your learning profile for good. It cannot be undone.',
  deleteOpen: 'Delete account…',
  deleteTypeEmail: params<{ email: string }>('Type {email} to confirm'),
  deleteConfirm: 'Delete my account',
  deleting: 'Deleting…',
  deleted: 'Your account was deleted.',
})
