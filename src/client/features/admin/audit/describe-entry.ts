import type { AuditAction, AuditEntry } from '@/shared/audit-log'
import { USER_ID_PATTERN } from '@/shared/people'
import type { auditMessages } from './messages'

type Messages = ReturnType<typeof auditMessages.get>

const actionKeys = {
  'level.create': 'levelCreate',
  'level.update': 'levelUpdate',
  'level.delete': 'levelDelete',
  'level.reorder': 'levelReorder',
  'can-do.create': 'canDoCreate',
  'can-do.update': 'canDoUpdate',
  'can-do.delete': 'canDoDelete',
  'can-do.reorder': 'canDoReorder',
  'can-do.import': 'canDoImport',
  'word.create': 'wordCreate',
  'word.update': 'wordUpdate',
  'word.delete': 'wordDelete',
  'word.import': 'wordImport',
  'role.grant': 'roleGrant',
  'role.revoke': 'roleRevoke',
  'user.disable': 'userDisable',
  'user.enable': 'userEnable',
  'user.sign-out': 'userSignOut',
  'user.session-revoke': 'userSessionRevoke',
  'user.confirmation-resend': 'userConfirmationResend',
  'user.delete': 'userDelete',
  'sign-in-method.link': 'providerLink',
  'sign-in-method.unlink': 'providerUnlink',
  'passkey.add': 'passkeyAdd',
  'passkey.rename': 'passkeyRename',
  'passkey.remove': 'passkeyRemove',
} as const satisfies Record<AuditAction, keyof Messages>

const levelFields = ['code', 'name', 'description'] as const

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined
}

const text = (value: unknown, name: string): string | undefined => {
  const found = field(value, name)
  return typeof found === 'string' && found !== '' ? found : undefined
}

/** What was done, in the interface language. */
export function actionOf(entry: AuditEntry, t: Messages): string {
  return t[actionKeys[entry.action]] ?? entry.action
}

/**
 * What a change was done to, and, for an account that still exists, its id: the list links to the
 * person's page. Changes of people's accounts keep `{ id, email }` before and after; a deletion
 * leaves nothing to link to.
 */
export function targetOf(entry: AuditEntry, t: Messages): { text: string; userId?: string } {
  if (entry.action === 'level.reorder') return { text: t.allLevels }
  if (entry.targetType === 'language_level' && entry.targetId) {
    const code = field(entry.after, 'code') ?? field(entry.before, 'code')
    return { text: typeof code === 'string' ? t.level({ code }) : t.levelId({ id: entry.targetId }) }
  }
  if (entry.targetType === 'user') {
    const id = text(entry.after, 'id') ?? text(entry.before, 'id')
    const linkable = id !== undefined && USER_ID_PATTERN.test(id) && entry.action !== 'user.delete'
    return { text: t.user({ user: entry.targetId ?? '' }), ...(linkable ? { userId: id } : {}) }
  }
  return { text: [entry.targetType, entry.targetId].filter(Boolean).join(' ') }
}

/**
 * What a change was about, under its target: which of a level's fields an update changed, the
 * provider linked or unlinked, the passkey added, renamed or removed.
 */
export function detailOf(entry: AuditEntry, t: Messages): string | undefined {
  const { before, after } = entry
  switch (entry.action) {
    case 'level.update': {
      const changed = levelFields.filter((name) => {
        const value = field(after, name)
        return value !== undefined && value !== field(before, name)
      })
      return changed.length > 0 ? t.changedFields({ fields: changed.map((name) => t[name]).join(', ') }) : undefined
    }
    case 'sign-in-method.link':
    case 'sign-in-method.unlink': {
      const provider = text(after, 'provider') ?? text(before, 'provider')
      return provider && t.provider({ provider })
    }
    case 'passkey.add':
    case 'passkey.remove':
      return t.passkey({ name: text(after, 'name') ?? text(before, 'name') ?? t.unnamedPasskey })
    case 'passkey.rename':
      return t.passkeyRenamed({ from: text(before, 'name') ?? t.unnamedPasskey, to: text(after, 'name') ?? '' })
    default:
      return undefined
  }
}
